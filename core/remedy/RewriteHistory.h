#pragma once

#include "mongo/ConnectionSettings.h"
#include "remedy/RewriteRun.h"
#include "source/SourceError.h"

#include <QStringList>

namespace oe {

// The rewrites a cluster remembers: every run of every remedy in every rewrite journal
// (<collection>_outlier_rewrites) of the given databases, newest first. What the desktop app's
// Migrations view lists beside the splits, and offers to resume when a connection opens.
// Blocking. A run of a remedy this version does not have is left out.
class RewriteHistory
{
public:
    // `databases` empty: every database the connection may list.
    static bool runs(const ConnectionSettings &settings, const QStringList &databases,
                     RewriteRuns *out, SourceError *error);
};

} // namespace oe
