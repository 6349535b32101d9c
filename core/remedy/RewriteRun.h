#pragma once

#include "remedy/RewriteConfig.h"
#include "remedy/RewriteState.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <cstdint>
#include <vector>

namespace oe {

// One run recorded in a rewrite journal (<collection>_outlier_rewrites): which remedy, on which
// field, how far it got. What Migrations lists beside the splits.
struct RewriteRun
{
    QString database;
    RewriteConfig config; // as the journal recorded it (resume, verify and rollback follow it)
    RewriteState state = RewriteState::Applying;
    QDateTime updated;          // the run document's last write (UTC); none in older journals
    std::uint64_t applied = 0;  // documents holding the rewrite (or accounted for)
    std::uint64_t pending = 0;  // journaled, their writes not known to have landed
    std::uint64_t restored = 0; // documents rolled back
    // Its writer (the application name it recorded) is connected to the server now: it is
    // running (here or elsewhere), not interrupted.
    bool running = false;

    // Stopped half-way (cancelled, crashed, closed): apply or roll back again resumes it.
    bool interrupted() const
    {
        return !running && (state == RewriteState::Applying || state == RewriteState::RollingBack);
    }
};

using RewriteRuns = std::vector<RewriteRun>;

} // namespace oe

Q_DECLARE_METATYPE(oe::RewriteRun)
Q_DECLARE_METATYPE(oe::RewriteRuns)
