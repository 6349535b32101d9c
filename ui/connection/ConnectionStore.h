#pragma once

#include "connection/RecentConnection.h"

#include <QList>

class QSettings;

#include <optional>

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
    // Renames the saved connection `from` in place (its password, if any, is the keychain's to
    // move: keychainKey() changes); false when none is saved under `from` or `to` is taken.
    static bool rename(const QString &from, const QString &to);
    // The saved connection for `uri` (compared without its password), newest first; nullopt
    // when none was saved.
    static std::optional<RecentConnection> findByUri(const QString &uri);
    static std::optional<RecentConnection> findByName(const QString &name);
    // One connection's fields at the current array index of `settings` (the recent list's, and
    // the last session's: SessionKeeper).
    static void write(QSettings &settings, const RecentConnection &connection);
    static RecentConnection read(const QSettings &settings);
};

} // namespace oe
