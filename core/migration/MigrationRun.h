#pragma once

#include "migration/JournalState.h"
#include "split/SplitConfig.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

#include <cstdint>
#include <vector>

namespace oe {

// One run recorded in a live migration journal: what was split, how far it got.
struct MigrationRun
{
    QString database;
    SplitConfig config; // as the journal recorded it (verify and rollback follow it)
    RunState state = RunState::Applying;
    QDateTime updated;          // the run document's last write (UTC)
    std::uint64_t split = 0;    // documents trimmed, pages complete
    std::uint64_t pending = 0;  // pages written, trim not done (resume finishes them)
    std::uint64_t restored = 0; // documents rolled back

    // Stopped half-way (cancelled, crashed, closed): split or rollback again resumes it.
    bool interrupted() const
    {
        return state == RunState::Applying || state == RunState::RollingBack;
    }
};

using MigrationRuns = std::vector<MigrationRun>;

} // namespace oe

Q_DECLARE_METATYPE(oe::MigrationRun)
Q_DECLARE_METATYPE(oe::MigrationRuns)
