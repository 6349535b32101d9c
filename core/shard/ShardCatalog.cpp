#include "shard/ShardCatalog.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "mongo/MongoConnection.h"

#include <mongoc/mongoc.h>

#include <algorithm>

namespace oe {

namespace {

constexpr std::size_t kLocateBatch = 500;

QByteArray fieldBytes(const bson_t *doc, const char *key)
{
    bson_iter_t it;
    if (!bson_iter_init_find(&it, doc, key) || !BSON_ITER_HOLDS_DOCUMENT(&it))
        return {};
    std::uint32_t length = 0;
    const std::uint8_t *data = nullptr;
    bson_iter_document(&it, &length, &data);
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(length));
}

QString utf8Field(const bson_t *doc, const char *key)
{
    bson_iter_t it;
    return bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_UTF8(&it)
               ? QString::fromUtf8(bson_iter_utf8(&it, nullptr))
               : QString();
}

// Every document of config.<name> matching `filter`; false (and the driver's message in
// `why`) when the read failed.
template <typename Take>
bool readConfig(MongoConnection &connection, const char *name, const bson_t *filter, Take &&take,
                QString *why)
{
    SourceError error;
    const auto visit = [&](const bson_t *doc) {
        take(doc);
        return true;
    };
    if (MongoDriver::find(connection, QStringLiteral("config"), QString::fromLatin1(name), filter,
                          nullptr, QStringLiteral("reading config.%1").arg(QLatin1String(name)),
                          visit, &error))
        return true;
    *why = error.message;
    return false;
}

void setNote(QString *note, const QString &text)
{
    if (note)
        *note = text;
}

} // namespace

std::optional<ShardLayout> ShardCatalog::load(MongoConnection &connection, const QString &database,
                                              const QString &collection, QString *note)
{
    ShardLayout layout;
    layout.ns = database + QLatin1Char('.') + collection;
    const QByteArray ns = layout.ns.toUtf8();
    QString why;
    BsonDocument entry;
    bool found = false;
    const BsonDocument byNs = BsonDocument::adopt(BCON_NEW("_id", BCON_UTF8(ns.constData())));
    if (!readConfig(
            connection, "collections", byNs.get(),
            [&](const bson_t *doc) {
                bson_iter_t it;
                if (bson_iter_init_find(&it, doc, "dropped") && bson_iter_as_bool(&it))
                    return;
                entry = BsonDocument::fromBytes(bsonraw::bytesOf(doc)).value_or(BsonDocument());
                found = true;
            },
            &why)) {
        setNote(note, QStringLiteral("shard layout unknown: %1").arg(why));
        return std::nullopt;
    }
    if (!found)
        return std::nullopt;
    const auto key = ShardKey::fromBson(fieldBytes(entry.get(), "key"));
    if (!key) {
        setNote(note, QStringLiteral("shard layout unknown: config.collections holds no key for %1")
                          .arg(layout.ns));
        return std::nullopt;
    }
    layout.key = *key;
    const BsonDocument all;
    readConfig(
        connection, "shards", all.get(),
        [&](const bson_t *doc) {
            layout.shards.push_back({utf8Field(doc, "_id"), utf8Field(doc, "host")});
        },
        &why);
    // MongoDB 5.0+ links chunks by the collection's uuid, older versions by namespace.
    BsonDocument chunkFilter;
    bson_iter_t uuid;
    if (bson_iter_init_find(&uuid, entry.get(), "uuid"))
        bson_append_iter(chunkFilter.get(), "uuid", 4, &uuid);
    else
        BSON_APPEND_UTF8(chunkFilter.get(), "ns", ns.constData());
    const bool chunksRead = readConfig(
        connection, "chunks", chunkFilter.get(),
        [&](const bson_t *doc) {
            const QString shard = utf8Field(doc, "shard");
            int index = layout.shardIndex(shard);
            if (index < 0 && !shard.isEmpty()) {
                layout.shards.push_back({shard, QString()});
                index = int(layout.shards.size()) - 1;
            }
            bson_iter_t jumbo;
            layout.chunks.push_back(
                {fieldBytes(doc, "min"), fieldBytes(doc, "max"), index,
                 bson_iter_init_find(&jumbo, doc, "jumbo") && bson_iter_as_bool(&jumbo)});
        },
        &why);
    if (!chunksRead)
        setNote(note, QStringLiteral("chunks unknown: %1").arg(why));
    std::sort(layout.chunks.begin(), layout.chunks.end(),
              [](const ShardLayout::Chunk &a, const ShardLayout::Chunk &b) {
                  return ShardKey::compareValues(a.min, b.min) < 0;
              });
    return layout;
}

bool ShardCatalog::locate(MongoConnection &connection, const ShardLayout &layout,
                          const QString &database, const QString &collection,
                          const std::vector<std::string> &ids, std::map<std::string, int> *shardOf,
                          SourceError *error)
{
    if (layout.key.isHashed())
        return true;
    if (layout.key.isRangedOnIdOnly()) {
        for (const std::string &id : ids) {
            BsonDocument values;
            bsonraw::append(values.get(), "_id", 3, bsonraw::fromDocumentId(id));
            if (const int shard = layout.shardOf(values.bytes()); shard >= 0)
                (*shardOf)[id] = shard;
        }
        return true;
    }
    const CollectionHandle coll(mongoc_client_get_collection(MongoDriver::client(connection),
                                                             database.toUtf8().constData(),
                                                             collection.toUtf8().constData()));
    BsonDocument opts;
    bson_t projection;
    BSON_APPEND_DOCUMENT_BEGIN(opts.get(), "projection", &projection);
    for (const QString &path : layout.key.paths())
        BSON_APPEND_INT32(&projection, path.toUtf8().constData(), 1);
    bson_append_document_end(opts.get(), &projection);
    for (std::size_t from = 0; from < ids.size(); from += kLocateBatch) {
        BsonDocument filter;
        bson_t in, list;
        BSON_APPEND_DOCUMENT_BEGIN(filter.get(), "_id", &in);
        BSON_APPEND_ARRAY_BEGIN(&in, "$in", &list);
        const std::size_t to = std::min(ids.size(), from + kLocateBatch);
        for (std::size_t i = from; i < to; ++i)
            bsonraw::append(&list, std::to_string(i - from).c_str(), -1,
                            bsonraw::fromDocumentId(ids[i]));
        bson_append_array_end(&in, &list);
        bson_append_document_end(filter.get(), &in);
        const CursorHandle cursor(
            mongoc_collection_find_with_opts(coll.get(), filter.get(), opts.get(), nullptr));
        const bson_t *doc = nullptr;
        while (mongoc_cursor_next(cursor.get(), &doc)) {
            bson_iter_t it;
            if (!bson_iter_init_find(&it, doc, "_id"))
                continue;
            if (const int shard = layout.shardOf(layout.key.valuesOf(bsonraw::bytesOf(doc)));
                shard >= 0)
                (*shardOf)[bsonraw::toDocumentId(bsonraw::valueOf(&it))] = shard;
        }
        bson_error_t e;
        if (mongoc_cursor_error(cursor.get(), &e)) {
            *error = MongoDriver::errorFrom(
                connection, e,
                QStringLiteral("reading the shard key of outliers of %1").arg(layout.ns));
            return false;
        }
    }
    return true;
}

} // namespace oe
