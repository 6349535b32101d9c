#pragma once

#include "migration/JournalState.h"
#include "migration/MigrationOptions.h"
#include "migration/VerifyReport.h"
#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace oe {

class MongoConnection;
struct JournalEntry;
struct PendingDocument;

// Applies a split to a live collection, safely: pages are upserted by (link, page) under a
// unique index before the primary is trimmed with a guard proving it unchanged since it was
// read; a journal in the cluster records every document (with a digest of its original
// array) so any machine can resume, verify or roll back. Correctness never depends on
// transactions. Verify and rollback are MigrationVerifier and MigrationRollback.
class OverflowMigrator
{
public:
    OverflowMigrator(ConnectionSettings settings, QString database, SplitConfig config);
    ~OverflowMigrator();

    // Connects and checks everything that can be checked before writing: the configuration,
    // the collection, the field's shape in every matching document, the overflow collection
    // (no foreign data), and any earlier run of this field. Writes nothing.
    bool prepare(SourceError *error);
    QStringList notes() const { return m_notes; } // e.g. "resuming an interrupted run"

    bool apply(const MigrationOptions &options, MigrationProgress *progress, SourceError *error,
               const std::atomic<bool> *cancel = nullptr,
               const MigrationProgressCallback &callback = {});

    MongoConnection *connection() const { return m_connection.get(); }
    const SplitConfig &config() const { return m_config; }
    const QString &database() const { return m_database; }

private:
    // `running`: the run's writer name is recorded (an interrupted run leaves it there).
    bool markRun(RunState state, const QString &step, SourceError *error, bool running = false);
    bool resumePending(const MigrationOptions &options, MigrationProgress *progress,
                       SourceError *error);
    bool resumeOne(const JournalEntry &entry, MigrationProgress *progress,
                   std::vector<PendingDocument> *unfinished, SourceError *error);
    bool pagesMatchJournal(const JournalEntry &entry, const QByteArray &primary, bool *match,
                           SourceError *error);
    bool splitAll(const MigrationOptions &options, MigrationProgress *progress, SourceError *error,
                  const std::atomic<bool> *cancel, const MigrationProgressCallback &callback,
                  bool *stopped);
    std::optional<PendingDocument> pendingFor(const QByteArray &doc, MigrationProgress *progress);

    ConnectionSettings m_settings;
    QString m_database;
    SplitConfig m_config;
    std::unique_ptr<MongoConnection> m_connection;
    QStringList m_notes;
    QString m_writer; // this run's name on the server (RunFence), empty if not unique
    bool m_prepared = false;
};

} // namespace oe
