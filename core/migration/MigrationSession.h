#pragma once

#include "analysis/SourceRef.h"
#include "migration/JournalState.h"
#include "migration/MigrationOptions.h"
#include "migration/MigrationStep.h"
#include "migration/RollbackLeftovers.h"
#include "migration/VerifyReport.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"
#include "split/SplitPlan.h"
#include "split/SplitPlanner.h"

#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

namespace oe {

class MongoConnection;
class OverflowMigrator;

// The migration use case, one typed session that the CLI and the migration wizard both drive:
// a target (a dump file, or a live collection), a split configuration, and its actions.
// plan() previews; apply() splits (live: journaled, guarded, resumable; offline: a new dump
// folder, all or nothing); followJournal() takes the configuration a run recorded, which
// verify() checks and rollback() undoes. Each step returns a MigrationStep value; each is
// blocking (run it off the UI thread), reports progress by callback and stops between batches
// when `cancel` is set.
class MigrationSession
{
public:
    // `outDir`: where an offline split or rollback writes (unused live).
    MigrationSession(SourceRef target, SplitConfig config, QString outDir = {});
    ~MigrationSession();
    MigrationSession(const MigrationSession &) = delete;
    MigrationSession &operator=(const MigrationSession &) = delete;

    bool isLive() const { return m_target.kind == SourceRef::Kind::Collection; }
    const SplitConfig &config() const { return m_config; }
    // What the user should know: a resumed run, FerretDB's non-atomic updates, documents
    // skipped because the field is not an array there.
    QStringList notes() const { return m_notes; }

    // Live: every check that can be made before writing (MigrationPreflight). Offline: none
    // (the plan refuses what cannot be split).
    bool prepare(SourceError *error);
    // Live: the layout checks of the pre-flight alone (MigrationPreflight::checkLayout), for
    // validation as the user types. Offline: nothing to check (the split writes a new dump).
    bool checkLayout(SourceError *error);
    // What apply() would do, reading the same documents; `onRow` sees each document to split.
    // Offline it refuses as apply() would (a missing field, a split dump, a corrupt document).
    // Live, `callback` hears the documents read so far (examined, phase "planning").
    MigrationStep plan(const SplitPlanner::RowCallback &onRow = {},
                       const std::atomic<bool> *cancel = nullptr,
                       const MigrationProgressCallback &callback = {});
    // Offline, `plan`, `written` and `progress` are filled; live, `progress` (and notes()).
    MigrationStep apply(const MigrationOptions &options, const std::atomic<bool> *cancel = nullptr,
                        const MigrationProgressCallback &callback = {});

    // Replaces the configuration with the one the journal recorded for the configured field
    // (verify and rollback follow the journal); false with `error` set when there is none.
    bool followJournal(RunState *state, SourceError *error);
    MigrationStep verify();
    // `verify` is the check of the restored documents; offline, the reassembled dump is listed
    // in `written`; live, `progress` counts the restored documents.
    MigrationStep rollback(const MigrationOptions &options,
                           const std::atomic<bool> *cancel = nullptr,
                           const MigrationProgressCallback &callback = {});

    // Live, after a rollback: what is left on the server (RollbackLeftovers), and removing it
    // when the user asks. Offline there is nothing (empty, true).
    bool leftovers(const QString &backupCollection, std::vector<RollbackLeftovers::Item> *items,
                   SourceError *error);
    bool removeLeftovers(const QString &backupCollection, QStringList *removed, SourceError *error);

private:
    bool connect(SourceError *error);

    SourceRef m_target;
    SplitConfig m_config;
    QString m_outDir;
    QStringList m_notes;
    std::unique_ptr<MongoConnection> m_connection; // verify and rollback
    std::unique_ptr<OverflowMigrator> m_migrator;  // prepare and apply (one preflight)
};

} // namespace oe
