#include "migration/MigrationHistory.h"
#include "split/SplitConfig.h"

#include "migration/JournalCollections.h"
#include "migration/JournalEntry.h"
#include "migration/internal/MigrationQueries.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/CollectionOps.h"

#include <algorithm>

namespace oe {

namespace {

QDateTime updatedOf(const QByteArray &bytes)
{
    bson_t doc;
    bson_iter_t it;
    if (CollectionOps::view(bytes, &doc) && bson_iter_init_find(&it, &doc, "updated") &&
        BSON_ITER_HOLDS_DATE_TIME(&it))
        return QDateTime::fromMSecsSinceEpoch(bson_iter_date_time(&it), Qt::UTC);
    return {};
}

// Documents of `run` in the journal in `state`.
std::uint64_t countIn(CollectionOps &journal, const QString &run, EntryState state,
                      SourceError *error)
{
    const QByteArray filter = migration::build([&](bson_t *d) {
        BSON_APPEND_UTF8(d, "kind", "document");
        migration::appendUtf8(d, QStringLiteral("run"), run);
        BSON_APPEND_UTF8(d, "state", journalWord(state));
    });
    const std::int64_t n = journal.count(filter, QStringLiteral("counting journal entries"), error);
    return n > 0 ? std::uint64_t(n) : 0;
}

bool runsOf(MongoConnection &connection, const QString &database, const QString &journalName,
            MigrationRuns *out, SourceError *error)
{
    CollectionOps journal(connection, database, journalName);
    const QByteArray filter =
        migration::build([](bson_t *d) { BSON_APPEND_UTF8(d, "kind", "run"); });
    MigrationRuns found;
    if (!journal.find(
            filter, {}, QStringLiteral("reading the journal %1.%2").arg(database, journalName),
            [&](const QByteArray &doc) {
                MigrationRun run;
                run.database = database;
                if (JournalEntry::configFromRunDocument(doc, &run.config, &run.state)) {
                    run.updated = updatedOf(doc);
                    found.push_back(run);
                }
                return true;
            },
            error))
        return false;
    for (MigrationRun &run : found) {
        run.split = countIn(journal, run.config.field, EntryState::Split, error);
        run.pending = countIn(journal, run.config.field, EntryState::Pending, error);
        // Entries an earlier run rolled back stay in the journal: restored counts are the
        // run's own only once it rolls back.
        const bool rollingBack =
            run.state == RunState::RollingBack || run.state == RunState::RolledBack;
        run.restored =
            rollingBack ? countIn(journal, run.config.field, EntryState::RolledBack, error) : 0;
        out->push_back(run);
    }
    return !error->isError();
}

} // namespace

bool MigrationHistory::runs(const ConnectionSettings &settings, const QStringList &databases,
                            MigrationRuns *out, SourceError *error)
{
    out->clear();
    auto connection = MongoConnection::open(settings, error);
    if (!connection)
        return false;
    if (!JournalCollections::visit(
            *connection, databases,
            [](const QString &name) { return SplitConfig::isJournal(name); },
            [&](const QString &database, const QString &journal) {
                return runsOf(*connection, database, journal, out, error);
            },
            error))
        return false;
    std::sort(out->begin(), out->end(),
              [](const MigrationRun &a, const MigrationRun &b) { return a.updated > b.updated; });
    return true;
}

} // namespace oe
