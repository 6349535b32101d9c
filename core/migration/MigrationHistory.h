#pragma once

#include "migration/MigrationRun.h"
#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"

#include <QStringList>

namespace oe {

// The migrations a cluster remembers: every run in every journal collection
// (<collection>_outlier_migrations) of the given databases, newest first. What the desktop
// app's Migrations view lists and what it offers to resume when a connection opens. Blocking.
class MigrationHistory
{
public:
    // `databases` empty: every database the connection may list.
    static bool runs(const ConnectionSettings &settings, const QStringList &databases,
                     MigrationRuns *out, SourceError *error);
};

} // namespace oe
