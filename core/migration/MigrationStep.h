#pragma once

#include "migration/MigrationOptions.h"
#include "migration/VerifyReport.h"
#include "source/SourceError.h"
#include "split/SplitPlan.h"

#include <QStringList>

namespace oe {

// What one step of a MigrationSession came back with (plan, apply, verify, rollback): a value
// of the same shape for every step, so the CLI and the wizard read it alike.
struct MigrationStep
{
    bool ok = false;
    SourceError error;          // why not ok
    SplitPlan plan;             // plan(); offline apply()
    MigrationProgress progress; // apply(), rollback()
    VerifyReport verify;        // verify(), rollback()
    QStringList written;        // offline apply() and rollback(): the files written
};

} // namespace oe
