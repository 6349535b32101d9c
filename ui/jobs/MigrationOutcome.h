#pragma once

#include "migration/MigrationStep.h"

#include <QMetaType>
#include <QStringList>

namespace oe {

// What one step of a migration (MigrationRunner) came back with: the session's MigrationStep
// (ok, error, plan, progress, verify, written) and what the wizard adds to it; a value that
// crosses from the worker thread to the wizard by copy.
struct MigrationOutcome : MigrationStep
{
    enum class Step
    {
        Prepare,         // pre-flight checks and the plan; writes nothing
        Apply,           // the split
        Verify,          // every split document against its journaled original
        Rollback,        // the originals restored (then what is left is listed)
        RemoveLeftovers, // after a rollback: the empty overflow, the journal, the backup
    };
    Step step = Step::Prepare;
    bool cancelled = false;
    QStringList notes;
    QStringList leftovers; // Rollback: what is left on the server; RemoveLeftovers: removed
    double seconds = 0.0;
};

} // namespace oe

Q_DECLARE_METATYPE(oe::MigrationOutcome)
Q_DECLARE_METATYPE(oe::MigrationProgress)
