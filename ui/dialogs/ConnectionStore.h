#pragma once

#include "dialogs/RecentConnection.h"

#include <QList>

namespace oe {

// The recent-connections list in QSettings, newest first, at most kMax entries. URIs are
// stored without their passwords; remember() strips one if it is still there.
class ConnectionStore
{
public:
    static constexpr int kMax = 10;
    static QList<RecentConnection> load();
    static void remember(RecentConnection connection);
    static void forget(const QString &name);
};

} // namespace oe
