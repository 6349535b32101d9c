#include "scan/IdRangePlanner.h"

#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "mongo/ConnectionSettings.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerInfo.h"
#include "mongo/ServerOpCanceller.h"
#include "mongo/ServerProbe.h"
#include "shard/ShardCatalog.h"
#include "stats/SplitMix64.h"

#include <mongoc/mongoc.h>

namespace oe {

namespace {

BsonDocument filterOf(const LiveQuery &query)
{
    if (query.filter.trimmed().isEmpty())
        return {};
    return BsonDocument::fromJson(query.filter.toUtf8()).value_or(BsonDocument());
}

QByteArray idOf(const bson_t *doc, const char *key = "_id")
{
    bson_iter_t it;
    return bson_iter_init_find(&it, doc, key) ? bsonraw::valueOf(&it) : QByteArray();
}

// Drains `cursor`, passing each document's _id to `take`; false with `error` on a cursor error.
template <typename Take>
bool drain(MongoConnection &connection, mongoc_cursor_t *cursor, const QString &step,
           const std::atomic<bool> *cancel, SourceError *error, Take &&take)
{
    const bson_t *doc = nullptr;
    std::uint64_t seen = 0;
    while (mongoc_cursor_next(cursor, &doc)) {
        take(idOf(doc));
        if ((++seen & 1023) == 0 && cancel && cancel->load())
            return true;
    }
    bson_error_t e;
    if (mongoc_cursor_error(cursor, &e)) {
        *error = MongoDriver::errorFrom(connection, e, step);
        return false;
    }
    return true;
}

BsonDocument idOnly()
{
    BsonDocument opts;
    bson_t projection;
    BSON_APPEND_DOCUMENT_BEGIN(opts.get(), "projection", &projection);
    BSON_APPEND_INT32(&projection, "_id", 1);
    bson_append_document_end(opts.get(), &projection);
    return opts;
}

// _ids by $sample: [{$match}, {$sample: {size}}, {$project: {_id: 1}}].
bool serverSample(MongoConnection &connection, mongoc_collection_t *coll, const LiveQuery &query,
                  const std::atomic<bool> *cancel, const ConnectionSettings *killWith,
                  std::vector<QByteArray> *ids, SourceError *error)
{
    BsonDocument pipeline;
    bson_t stages, stage, body;
    BSON_APPEND_ARRAY_BEGIN(pipeline.get(), "pipeline", &stages);
    int n = 0;
    if (!query.filter.trimmed().isEmpty()) {
        bson_append_document_begin(&stages, std::to_string(n++).c_str(), -1, &stage);
        const BsonDocument filter = filterOf(query);
        BSON_APPEND_DOCUMENT(&stage, "$match", filter.get());
        bson_append_document_end(&stages, &stage);
    }
    bson_append_document_begin(&stages, std::to_string(n++).c_str(), -1, &stage);
    BSON_APPEND_DOCUMENT_BEGIN(&stage, "$sample", &body);
    BSON_APPEND_INT32(&body, "size", IdRangePlanner::kSampleSize);
    bson_append_document_end(&stage, &body);
    bson_append_document_end(&stages, &stage);
    bson_append_document_begin(&stages, std::to_string(n++).c_str(), -1, &stage);
    BSON_APPEND_DOCUMENT_BEGIN(&stage, "$project", &body);
    BSON_APPEND_INT32(&body, "_id", 1);
    bson_append_document_end(&stage, &body);
    bson_append_document_end(&stages, &stage);
    bson_append_array_end(pipeline.get(), &stages);
    BsonDocument opts;
    if (query.maxTimeMs > 0)
        BSON_APPEND_INT64(opts.get(), "maxTimeMS", query.maxTimeMs);
    const QString comment = ServerOpCanceller::uniqueComment();
    std::optional<ServerOpCanceller> canceller;
    if (killWith && cancel) {
        BSON_APPEND_UTF8(opts.get(), "comment", comment.toUtf8().constData());
        canceller.emplace(*killWith, cancel, comment);
    }
    const CursorHandle cursor(
        mongoc_collection_aggregate(coll, MONGOC_QUERY_NONE, pipeline.get(), opts.get(), nullptr));
    return drain(connection, cursor.get(),
                 QStringLiteral("sampling _ids of %1 ($sample)").arg(query.ns()), cancel, error,
                 [&](QByteArray id) { ids->push_back(std::move(id)); });
}

// A uniform reservoir of _ids over an _id-only scan (Algorithm R, seeded).
bool reservoirSample(MongoConnection &connection, mongoc_collection_t *coll, const LiveQuery &query,
                     const std::atomic<bool> *cancel, std::vector<QByteArray> *ids,
                     SourceError *error)
{
    const BsonDocument filter = filterOf(query);
    BsonDocument opts = idOnly();
    if (query.maxTimeMs > 0)
        BSON_APPEND_INT64(opts.get(), "maxTimeMS", query.maxTimeMs);
    const CursorHandle cursor(
        mongoc_collection_find_with_opts(coll, filter.get(), opts.get(), nullptr));
    SplitMix64 rng(query.selection.seed);
    std::uint64_t seen = 0;
    const auto k = std::size_t(IdRangePlanner::kSampleSize);
    return drain(connection, cursor.get(),
                 QStringLiteral("sampling _ids of %1 (reservoir)").arg(query.ns()), cancel, error,
                 [&](QByteArray id) {
                     if (ids->size() < k)
                         ids->push_back(std::move(id));
                     else if (const std::uint64_t j = rng.below(seen + 1); j < k)
                         (*ids)[std::size_t(j)] = std::move(id);
                     ++seen;
                 });
}

// One _id of the query (the first in natural order): a single range needs no quantiles, only a
// value of the cut type.
bool firstId(MongoConnection &connection, mongoc_collection_t *coll, const LiveQuery &query,
             std::vector<QByteArray> *ids, SourceError *error)
{
    const BsonDocument filter = filterOf(query);
    BsonDocument opts = idOnly();
    BSON_APPEND_INT64(opts.get(), "limit", 1);
    if (query.maxTimeMs > 0)
        BSON_APPEND_INT64(opts.get(), "maxTimeMS", query.maxTimeMs);
    const CursorHandle cursor(
        mongoc_collection_find_with_opts(coll, filter.get(), opts.get(), nullptr));
    return drain(connection, cursor.get(), QStringLiteral("reading an _id of %1").arg(query.ns()),
                 nullptr, error, [&](QByteArray id) { ids->push_back(std::move(id)); });
}

} // namespace

std::optional<IdRangePlan> IdRangePlanner::plan(MongoConnection &connection, const LiveQuery &query,
                                                int ranges, const std::atomic<bool> *cancel,
                                                SourceError *error,
                                                const ConnectionSettings *killWith)
{
    ServerInfo info;
    if (!ServerProbe::probe(connection, query.database, &info, error))
        return std::nullopt;
    // A collection sharded on {_id: 1} (config.collections, as mongos serves it) is cut at its
    // chunks' boundaries.
    if (const auto layout = ShardCatalog::load(connection, query.database, query.collection)) {
        IdRangePlan chunked = IdRangePlan::fromChunkBounds(layout->idLowerBounds(), ranges);
        if (!chunked.isWhole())
            return chunked;
    }
    const CollectionHandle coll(mongoc_client_get_collection(
        MongoDriver::client(connection), query.database.toUtf8().constData(),
        query.collection.toUtf8().constData()));
    std::vector<QByteArray> ids;
    if (ranges <= 1) {
        if (!firstId(connection, coll.get(), query, &ids, error))
            return std::nullopt;
        return IdRangePlan::fromSample(std::move(ids), 1, IdRangePlan::Origin::FirstId);
    }
    if (info.supportsSample) {
        if (!serverSample(connection, coll.get(), query, cancel, killWith, &ids, error))
            return std::nullopt;
        return IdRangePlan::fromSample(std::move(ids), ranges, IdRangePlan::Origin::ServerSample);
    }
    if (!reservoirSample(connection, coll.get(), query, cancel, &ids, error))
        return std::nullopt;
    return IdRangePlan::fromSample(std::move(ids), ranges, IdRangePlan::Origin::ReservoirSample);
}

} // namespace oe
