#include "migration/RollbackLeftovers.h"

#include "migration/JournalEntry.h"
#include "migration/MigrationVerifier.h"
#include "migration/internal/MigrationQueries.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/CollectionOps.h"

namespace oe {

using Write = CollectionOps::Write;

namespace {

QByteArray thisRun(const SplitConfig &config)
{
    return migration::build(
        [&](bson_t *d) { migration::appendUtf8(d, QStringLiteral("run"), config.field); });
}

QByteArray everything()
{
    return migration::build([](bson_t *) {});
}

bool drop(MongoConnection &connection, const QString &database, const QString &collection,
          SourceError *error)
{
    const QByteArray command = migration::build(
        [&](bson_t *d) { migration::appendUtf8(d, QStringLiteral("drop"), collection); });
    return !connection
                .command(database, command, QStringLiteral("removing %1").arg(collection), error)
                .isEmpty();
}

} // namespace

QString RollbackLeftovers::Item::describe() const
{
    const QString count =
        documents == 0 ? QStringLiteral("empty") : QStringLiteral("%1 document(s)").arg(documents);
    switch (kind) {
    case Kind::Overflow:
        return QStringLiteral("overflow collection %1 (%2)").arg(collection, count);
    case Kind::Journal:
        return QStringLiteral("migration journal %1 (%2 record(s) of this run)")
            .arg(collection)
            .arg(documents);
    case Kind::Backup:
        return QStringLiteral("backup of the originals %1 (%2)").arg(collection, count);
    }
    return collection;
}

bool RollbackLeftovers::find(MongoConnection &connection, const QString &database,
                             const SplitConfig &config, const QString &backupCollection,
                             std::vector<Item> *items, SourceError *error)
{
    items->clear();
    const std::pair<Item::Kind, QString> candidates[] = {
        {Item::Kind::Overflow, config.overflowCollection},
        {Item::Kind::Journal, config.journalCollection()},
        {Item::Kind::Backup, backupCollection}};
    for (const auto &[kind, name] : candidates) {
        if (name.isEmpty())
            continue;
        CollectionOps ops(connection, database, name);
        const bool exists = ops.exists(error);
        if (error->isError())
            return false;
        if (!exists)
            continue;
        const std::int64_t n =
            ops.count(kind == Item::Kind::Journal ? thisRun(config) : everything(),
                      QStringLiteral("counting %1").arg(name), error);
        if (n < 0)
            return false;
        items->push_back({kind, name, n});
    }
    return true;
}

bool RollbackLeftovers::remove(MongoConnection &connection, const QString &database,
                               const SplitConfig &config, const std::vector<Item> &items,
                               QStringList *removed, SourceError *error)
{
    SplitConfig journaled;
    RunState state = RunState::Applying;
    if (!MigrationVerifier::journaledConfig(connection, database, config.collection, config.field,
                                            &journaled, &state, error) ||
        state != RunState::RolledBack) {
        if (!error->isError()) {
            error->kind = SourceError::Kind::Usage;
            error->message = QStringLiteral("the migration of field '%1' is not rolled back: "
                                            "nothing removed")
                                 .arg(config.field);
        }
        return false;
    }
    for (const Item &item : items) {
        CollectionOps ops(connection, database, item.collection);
        if (item.kind == Item::Kind::Journal) {
            // This run's records; the collection itself only when nothing else is in it.
            if (!ops.bulk({{Write::Kind::DeleteMany, thisRun(config), {}}},
                          QStringLiteral("removing the journal's records"), error))
                return false;
            const std::int64_t rest =
                ops.count(everything(), QStringLiteral("counting %1").arg(item.collection), error);
            if (rest < 0 || (rest == 0 && !drop(connection, database, item.collection, error)))
                return false;
            *removed << QStringLiteral("the records of this run in %1").arg(item.collection);
            continue;
        }
        if (item.kind == Item::Kind::Overflow) {
            const std::int64_t n =
                ops.count(everything(), QStringLiteral("counting %1").arg(item.collection), error);
            if (n < 0)
                return false;
            if (n > 0) {
                error->kind = SourceError::Kind::Usage;
                error->message = QStringLiteral("%1 holds %2 page(s) the rollback did not "
                                                "restore: not removed")
                                     .arg(item.collection)
                                     .arg(n);
                return false;
            }
        }
        if (!drop(connection, database, item.collection, error))
            return false;
        *removed << item.collection;
    }
    return true;
}

} // namespace oe
