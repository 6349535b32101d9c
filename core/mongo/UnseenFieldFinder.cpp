#include "mongo/UnseenFieldFinder.h"

#include "bson/DocumentId.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonIter.h"
#include "measure/MeasurePlan.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/MongoDriver.h"

#include <bson/bson.h>

namespace oe {

namespace {

// {$nor: [{$jsonSchema: {properties: {name: {}, ...}, additionalProperties: false}}]}, ANDed with
// the user's filter; nullopt when a name cannot be a schema property here.
std::optional<BsonDocument> unseenFilter(const QString &filter,
                                         const std::vector<std::string> &knownNames)
{
    if (knownNames.empty())
        return std::nullopt;
    BsonDocument out;
    bson_t all, nor, alternative, schema, properties, any;
    BSON_APPEND_ARRAY_BEGIN(out.get(), "$and", &all);
    if (!filter.trimmed().isEmpty()) {
        const auto parsed = BsonDocument::fromJson(filter.toUtf8());
        if (!parsed)
            return std::nullopt; // validated before the scan: not reached
        BSON_APPEND_DOCUMENT(&all, "0", parsed->get());
    }
    BSON_APPEND_DOCUMENT_BEGIN(&all, filter.trimmed().isEmpty() ? "0" : "1", &nor);
    BSON_APPEND_ARRAY_BEGIN(&nor, "$nor", &alternative);
    BSON_APPEND_DOCUMENT_BEGIN(&alternative, "0", &schema);
    bson_t jsonSchema;
    BSON_APPEND_DOCUMENT_BEGIN(&schema, "$jsonSchema", &jsonSchema);
    BSON_APPEND_DOCUMENT_BEGIN(&jsonSchema, "properties", &properties);
    for (const std::string &name : knownNames) {
        if (!MeasurePlan::plainName(name))
            return std::nullopt;
        bson_append_document_begin(&properties, name.data(), int(name.size()), &any);
        bson_append_document_end(&properties, &any);
    }
    bson_append_document_end(&jsonSchema, &properties);
    BSON_APPEND_BOOL(&jsonSchema, "additionalProperties", false);
    bson_append_document_end(&schema, &jsonSchema);
    bson_append_document_end(&alternative, &schema);
    bson_append_array_end(&nor, &alternative);
    bson_append_document_end(&all, &nor);
    bson_append_array_end(out.get(), &all);
    return out;
}

} // namespace

QByteArray UnseenFieldFinder::schema(const std::vector<std::string> &knownNames)
{
    if (knownNames.empty())
        return {};
    BsonDocument out;
    bson_t jsonSchema, properties, any;
    BSON_APPEND_DOCUMENT_BEGIN(out.get(), "$jsonSchema", &jsonSchema);
    BSON_APPEND_DOCUMENT_BEGIN(&jsonSchema, "properties", &properties);
    for (const std::string &name : knownNames) {
        if (!MeasurePlan::plainName(name))
            return {};
        bson_append_document_begin(&properties, name.data(), int(name.size()), &any);
        bson_append_document_end(&properties, &any);
    }
    bson_append_document_end(&jsonSchema, &properties);
    BSON_APPEND_BOOL(&jsonSchema, "additionalProperties", false);
    bson_append_document_end(out.get(), &jsonSchema);
    return out.bytes();
}

QByteArray UnseenFieldFinder::filterJson(const QString &filter,
                                         const std::vector<std::string> &knownNames)
{
    const auto query = unseenFilter(filter, knownNames);
    if (!query)
        return {};
    std::size_t length = 0;
    char *json = bson_as_canonical_extended_json(query->get(), &length);
    const QByteArray out(json, qsizetype(length));
    bson_free(json);
    return out;
}

std::optional<UnseenFieldFinder::Result>
UnseenFieldFinder::find(const ConnectionSettings &settings, const QString &database,
                        const QString &collection, const QString &filter,
                        const std::vector<std::string> &knownNames, qint64 maxTimeMs,
                        SourceError *error)
{
    const auto query = unseenFilter(filter, knownNames);
    if (!query)
        return std::nullopt;
    const auto connection = MongoConnection::open(settings, error);
    if (!connection)
        return std::nullopt;
    BsonDocument opts;
    bson_t projection;
    BSON_APPEND_DOCUMENT_BEGIN(opts.get(), "projection", &projection);
    BSON_APPEND_INT32(&projection, "_id", 1);
    bson_append_document_end(opts.get(), &projection);
    BSON_APPEND_INT64(opts.get(), "limit", std::int64_t(kMaxDocuments) + 1);
    if (maxTimeMs > 0)
        BSON_APPEND_INT64(opts.get(), "maxTimeMS", maxTimeMs);
    auto ids = std::make_shared<std::unordered_set<std::string>>();
    Result result;
    const auto keep = [&](const bson_t *doc) {
        bson_iter_t id;
        ++result.count;
        if (bson_iter_init_find(&id, doc, "_id"))
            ids->insert(DocumentId::raw(int(bson_iter_type(&id)),
                                        bsoniter::container(&id) + bsoniter::valueOffset(&id),
                                        bsoniter::valueLength(&id)));
        return true;
    };
    if (!MongoDriver::find(*connection, database, collection, query->get(), opts.get(),
                           QStringLiteral("looking for documents with top-level fields the "
                                          "discovery sample did not see"),
                           keep, error))
        return std::nullopt;
    result.capped = result.count > kMaxDocuments;
    if (!result.capped)
        result.ids = std::move(ids);
    return result;
}

} // namespace oe
