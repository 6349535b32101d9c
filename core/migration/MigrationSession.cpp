#include "migration/MigrationSession.h"

#include "migration/MigrationPreflight.h"
#include "migration/MigrationRollback.h"
#include "migration/MigrationVerifier.h"
#include "migration/OfflineSplitter.h"
#include "migration/OverflowMigrator.h"
#include "mongo/LiveCollectionSource.h"
#include "mongo/MongoConnection.h"

#include <QElapsedTimer>

#include <utility>

namespace oe {

MigrationSession::MigrationSession(SourceRef target, SplitConfig config, QString outDir)
    : m_target(std::move(target)), m_config(std::move(config)), m_outDir(std::move(outDir))
{
    m_config.collection = m_target.collectionName();
    m_config = m_config.withDefaults();
}

MigrationSession::~MigrationSession() = default;

bool MigrationSession::connect(SourceError *error)
{
    if (!m_connection)
        m_connection = MongoConnection::open(m_target.settings, error);
    return m_connection != nullptr;
}

bool MigrationSession::prepare(SourceError *error)
{
    if (!isLive())
        return true;
    m_migrator = std::make_unique<OverflowMigrator>(m_target.settings, m_target.database, m_config);
    const bool ok = m_migrator->prepare(error);
    m_notes = m_migrator->notes();
    return ok;
}

bool MigrationSession::checkLayout(SourceError *error)
{
    return !isLive() || (connect(error) && MigrationPreflight::checkLayout(
                                               *m_connection, m_target.database, m_config, error));
}

MigrationStep MigrationSession::plan(const SplitPlanner::RowCallback &onRow,
                                     const std::atomic<bool> *cancel,
                                     const MigrationProgressCallback &callback)
{
    MigrationStep step;
    if (!isLive()) {
        step.ok = OfflineSplitter::plan(m_target.dumpPath, m_config, &step.plan, &step.error,
                                        cancel, onRow);
        return step;
    }
    LiveQuery query;
    query.database = m_target.database;
    query.collection = m_target.collection;
    query.filter = m_config.filter;
    LiveCollectionSource source(m_target.settings, query);
    QElapsedTimer clock;
    clock.start();
    const auto report = [&](const SplitPlan &sofar) {
        if (!callback)
            return;
        MigrationProgress p;
        p.examined = sofar.documents;
        p.migrated = sofar.affected;
        p.elementsMoved = sofar.elementsMoved;
        p.seconds = double(clock.elapsed()) / 1000.0;
        p.phase = QStringLiteral("planning");
        callback(p);
    };
    step.plan = SplitPlanner::plan(source, m_config, cancel, onRow, report);
    report(step.plan); // the last figures, however quick the plan was
    if (step.plan.error.isError())
        step.error = step.plan.error;
    step.ok = !step.plan.error.isError();
    return step;
}

MigrationStep MigrationSession::apply(const MigrationOptions &options,
                                      const std::atomic<bool> *cancel,
                                      const MigrationProgressCallback &callback)
{
    MigrationStep step;
    if (!isLive()) {
        QElapsedTimer clock;
        clock.start();
        step.ok = OfflineSplitter::split(m_target.dumpPath, m_outDir, m_config, &step.plan,
                                         &step.written, &step.error, cancel);
        step.progress.migrated = step.plan.affected;
        step.progress.elementsMoved = step.plan.elementsMoved;
        step.progress.pagesWritten = step.plan.overflowDocuments;
        step.progress.seconds = double(clock.elapsed()) / 1000.0;
        return step;
    }
    if (!m_migrator) // apply() prepares first when prepare() was not called
        m_migrator =
            std::make_unique<OverflowMigrator>(m_target.settings, m_target.database, m_config);
    step.ok = m_migrator->apply(options, &step.progress, &step.error, cancel, callback);
    m_notes = m_migrator->notes();
    return step;
}

bool MigrationSession::followJournal(RunState *state, SourceError *error)
{
    SplitConfig journaled;
    if (!isLive()) {
        if (!OfflineSplitter::journaledConfig(m_target.dumpPath, m_config.field, &journaled, state,
                                              error))
            return false;
    } else {
        if (!connect(error))
            return false;
        if (!MigrationVerifier::journaledConfig(*m_connection, m_target.database,
                                                m_config.collection, m_config.field, &journaled,
                                                state, error)) {
            if (!error->isError()) {
                error->kind = SourceError::Kind::Usage;
                error->message =
                    QStringLiteral("no migration of field '%1' in the journal %2.%3")
                        .arg(m_config.field, m_target.database, m_config.journalCollection());
            }
            return false;
        }
    }
    m_config = journaled.withDefaults();
    return true;
}

MigrationStep MigrationSession::verify()
{
    MigrationStep step;
    if (!isLive())
        step.ok = OfflineSplitter::verify(m_target.dumpPath, m_config, &step.verify, &step.error);
    else
        step.ok =
            connect(&step.error) && MigrationVerifier::verify(*m_connection, m_target.database,
                                                              m_config, &step.verify, &step.error);
    return step;
}

MigrationStep MigrationSession::rollback(const MigrationOptions &options,
                                         const std::atomic<bool> *cancel,
                                         const MigrationProgressCallback &callback)
{
    MigrationStep step;
    if (!isLive()) {
        step.ok = OfflineSplitter::rollback(m_target.dumpPath, m_outDir, m_config, &step.verify,
                                            &step.written, &step.error);
        return step;
    }
    // This session's own split (stopped, failed or done) goes, and its connection with it: a
    // split that failed leaves its writer name in the journal, and the rollback waits until no
    // connection of that name is left on the server (RunFence).
    m_migrator.reset();
    step.ok =
        connect(&step.error) &&
        MigrationPreflight::sharding(*m_connection, m_target.database, &m_config, &m_notes,
                                     &step.error, false) &&
        MigrationRollback::rollback(*m_connection, m_target.database, m_config, options,
                                    &step.verify, &step.progress, &step.error, cancel, callback);
    return step;
}

bool MigrationSession::leftovers(const QString &backupCollection,
                                 std::vector<RollbackLeftovers::Item> *items, SourceError *error)
{
    items->clear();
    if (!isLive())
        return true;
    return connect(error) && RollbackLeftovers::find(*m_connection, m_target.database, m_config,
                                                     backupCollection, items, error);
}

bool MigrationSession::removeLeftovers(const QString &backupCollection, QStringList *removed,
                                       SourceError *error)
{
    std::vector<RollbackLeftovers::Item> items;
    return leftovers(backupCollection, &items, error) &&
           (items.empty() || RollbackLeftovers::remove(*m_connection, m_target.database, m_config,
                                                       items, removed, error));
}

} // namespace oe
