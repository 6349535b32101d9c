#include "mongo/CollectionCatalog.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include "bson/internal/BsonDocument.h"

#include <mongoc/mongoc.h>

#include <algorithm>

namespace oe {

namespace {

std::optional<qint64> number(const bson_t *doc, const char *key)
{
    bson_iter_t it;
    if (bson_iter_init_find(&it, doc, key) && (BSON_ITER_HOLDS_NUMBER(&it)))
        return qint64(bson_iter_as_int64(&it));
    return std::nullopt;
}

bool statsFrom(const bson_t *doc, CollectionInfo *info)
{
    info->documents = number(doc, "count");
    info->dataSize = number(doc, "size");
    info->averageDocumentSize = number(doc, "avgObjSize");
    info->storageSize = number(doc, "storageSize");
    info->indexes = number(doc, "nindexes");
    if (!info->averageDocumentSize && info->documents && info->dataSize && *info->documents > 0)
        info->averageDocumentSize = *info->dataSize / *info->documents;
    return info->documents.has_value();
}

} // namespace

bool CollectionCatalog::databases(MongoConnection &connection, std::vector<DatabaseInfo> *out,
                                  SourceError *error)
{
    const BsonDocument cmd = BsonDocument::adopt(
        BCON_NEW("listDatabases", BCON_INT32(1), "authorizedDatabases", BCON_BOOL(true)));
    BsonDocument reply;
    bson_error_t e;
    if (!mongoc_client_command_simple(MongoDriver::client(connection), "admin", cmd.get(), nullptr,
                                      reply.reply(), &e)) {
        *error = MongoDriver::errorFrom(connection, e, QStringLiteral("listing databases"));
        return false;
    }
    bson_iter_t it, list;
    if (bson_iter_init_find(&it, reply.get(), "databases") && BSON_ITER_HOLDS_ARRAY(&it) &&
        bson_iter_recurse(&it, &list)) {
        while (bson_iter_next(&list)) {
            bson_iter_t field;
            if (!BSON_ITER_HOLDS_DOCUMENT(&list) || !bson_iter_recurse(&list, &field))
                continue;
            DatabaseInfo db;
            while (bson_iter_next(&field)) {
                const std::string_view key = bson_iter_key(&field);
                if (key == "name" && BSON_ITER_HOLDS_UTF8(&field))
                    db.name = QString::fromUtf8(bson_iter_utf8(&field, nullptr));
                else if (key == "sizeOnDisk" && BSON_ITER_HOLDS_NUMBER(&field))
                    db.sizeOnDisk = qint64(bson_iter_as_int64(&field));
            }
            if (!db.name.isEmpty())
                out->push_back(db);
        }
    }
    std::sort(out->begin(), out->end(),
              [](const DatabaseInfo &a, const DatabaseInfo &b) { return a.name < b.name; });
    return true;
}

bool CollectionCatalog::collections(MongoConnection &connection, const QString &database,
                                    std::vector<CollectionInfo> *out, SourceError *error)
{
    const DatabaseHandle db(
        mongoc_client_get_database(MongoDriver::client(connection), database.toUtf8().constData()));
    const CursorHandle cursor(mongoc_database_find_collections_with_opts(db.get(), nullptr));
    const bson_t *doc = nullptr;
    while (mongoc_cursor_next(cursor.get(), &doc)) {
        CollectionInfo info;
        info.database = database;
        bson_iter_t it;
        if (bson_iter_init_find(&it, doc, "name") && BSON_ITER_HOLDS_UTF8(&it))
            info.name = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
        if (bson_iter_init_find(&it, doc, "type") && BSON_ITER_HOLDS_UTF8(&it))
            info.type = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
        // The server's own databases hold no application data: local (the oplog, the replica
        // set's state, startup_log) and config (sessions, transactions, a cluster's metadata).
        info.isSystem = info.name.startsWith(QStringLiteral("system.")) ||
                        database == QLatin1String("local") || database == QLatin1String("config");
        if (!info.name.isEmpty())
            out->push_back(info);
    }
    bson_error_t e;
    const bool failed = mongoc_cursor_error(cursor.get(), &e);
    if (failed) {
        *error = MongoDriver::errorFrom(connection, e,
                                        QStringLiteral("listing collections of %1").arg(database));
        return false;
    }
    std::sort(out->begin(), out->end(),
              [](const CollectionInfo &a, const CollectionInfo &b) { return a.name < b.name; });
    for (CollectionInfo &info : *out)
        if (!info.isView())
            fillStatistics(connection, &info);
    return true;
}

void CollectionCatalog::fillStatistics(MongoConnection &connection, CollectionInfo *info)
{
    mongoc_client_t *client = MongoDriver::client(connection);
    const QByteArray dbName = info->database.toUtf8();
    const QByteArray collName = info->name.toUtf8();
    BsonDocument reply;
    bson_error_t e;
    const BsonDocument cmd =
        BsonDocument::adopt(BCON_NEW("collStats", BCON_UTF8(collName.constData())));
    if (mongoc_client_command_simple(client, dbName.constData(), cmd.get(), nullptr, reply.reply(),
                                     &e) &&
        statsFrom(reply.get(), info)) {
        info->statsSource = QStringLiteral("collStats");
        return;
    }

    // collStats is deprecated on newer servers and absent on some others: try the stage.
    const CollectionHandle coll(
        mongoc_client_get_collection(client, dbName.constData(), collName.constData()));
    const BsonDocument pipeline = BsonDocument::adopt(
        BCON_NEW("pipeline", "[", "{", "$collStats", "{", "storageStats", "{", "}", "}", "}", "]"));
    const CursorHandle cursor(mongoc_collection_aggregate(coll.get(), MONGOC_QUERY_NONE,
                                                          pipeline.get(), nullptr, nullptr));
    const bson_t *doc = nullptr;
    bool found = false;
    if (mongoc_cursor_next(cursor.get(), &doc)) {
        bson_iter_t it;
        if (bson_iter_init_find(&it, doc, "storageStats") && BSON_ITER_HOLDS_DOCUMENT(&it)) {
            std::uint32_t len = 0;
            const std::uint8_t *data = nullptr;
            bson_iter_document(&it, &len, &data);
            bson_t stats;
            if (bson_init_static(&stats, data, len) && statsFrom(&stats, info))
                found = true;
        }
    }
    if (found) {
        info->statsSource = QStringLiteral("$collStats");
    } else {
        const std::int64_t count =
            mongoc_collection_estimated_document_count(coll.get(), nullptr, nullptr, nullptr, &e);
        if (count >= 0) {
            info->documents = count;
            info->statsSource = QStringLiteral("estimated count");
        }
    }
}

} // namespace oe
