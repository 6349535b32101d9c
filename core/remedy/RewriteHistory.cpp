#include "remedy/RewriteHistory.h"

#include "bson/internal/BsonDocument.h"
#include "migration/JournalCollections.h"
#include "migration/RunFence.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/CollectionOps.h"
#include "remedy/internal/RewriteJournal.h"

#include <algorithm>

namespace oe {

namespace {

// Every run document of one journal ({_id: /^run:/}), read into its run with its counts.
bool runsOf(MongoConnection &connection, const QString &database, const QString &journalName,
            RewriteRuns *out, SourceError *error)
{
    const QString collection = journalName.chopped(RewriteConfig::journalSuffix().size());
    CollectionOps journal(connection, database, journalName);
    BsonDocument filter;
    bson_t id;
    bson_append_document_begin(filter.get(), "_id", -1, &id);
    bson_append_regex(&id, "$regex", -1, "^run:", "");
    bson_append_document_end(filter.get(), &id);
    RewriteRuns found;
    if (!journal.find(
            filter.bytes(), {},
            QStringLiteral("reading the rewrite journal %1.%2").arg(database, journalName),
            [&](const QByteArray &doc) {
                const std::optional<RewriteConfig> base = RewriteJournal::baseOf(doc, collection);
                if (!base)
                    return true;
                const RewriteJournal::Run read = RewriteJournal::runOf(doc, *base);
                if (!read.present || !read.problem.isEmpty())
                    return true;
                RewriteRun run;
                run.database = database;
                run.config = read.config;
                run.state = read.state;
                run.updated = read.updated;
                const bool midRun =
                    read.state == RewriteState::Applying || read.state == RewriteState::RollingBack;
                if (midRun && read.writer && !read.writer->isEmpty())
                    run.running = RunFence::isConnected(connection, *read.writer).value_or(false);
                found.push_back(run);
                return true;
            },
            error))
        return false;
    for (RewriteRun &run : found) {
        RewriteJournal entries(connection, database, run.config);
        run.applied = entries.countIn(RewriteEntryState::Applied, error);
        run.pending = entries.countIn(RewriteEntryState::Pending, error);
        run.restored = entries.countIn(RewriteEntryState::RolledBack, error);
        out->push_back(run);
    }
    return !error->isError();
}

} // namespace

bool RewriteHistory::runs(const ConnectionSettings &settings, const QStringList &databases,
                          RewriteRuns *out, SourceError *error)
{
    out->clear();
    auto connection = MongoConnection::open(settings, error);
    if (!connection)
        return false;
    const auto isJournal = [](const QString &name) {
        return RewriteConfig::isJournal(name) && name != RewriteConfig::journalSuffix();
    };
    if (!JournalCollections::visit(
            *connection, databases, isJournal,
            [&](const QString &database, const QString &journal) {
                return runsOf(*connection, database, journal, out, error);
            },
            error))
        return false;
    std::stable_sort(out->begin(), out->end(), [](const RewriteRun &a, const RewriteRun &b) {
        return a.updated > b.updated;
    });
    return true;
}

} // namespace oe
