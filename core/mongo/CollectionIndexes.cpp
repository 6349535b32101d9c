#include "mongo/CollectionIndexes.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include <cstring>

namespace oe {

namespace {

QString json(const bson_t *doc)
{
    char *text = bson_as_relaxed_extended_json(doc, nullptr);
    const QString out = QString::fromUtf8(text);
    bson_free(text);
    return out;
}

QString subdocumentJson(const bson_iter_t *it)
{
    std::uint32_t length = 0;
    const std::uint8_t *data = nullptr;
    bson_iter_document(it, &length, &data);
    bson_t doc;
    return bson_init_static(&doc, data, length) ? json(&doc) : QString();
}

std::int64_t numberAt(const bson_t *doc, const char *dotted)
{
    bson_iter_t it, found;
    if (bson_iter_init(&it, doc) && bson_iter_find_descendant(&it, dotted, &found) &&
        BSON_ITER_HOLDS_NUMBER(&found))
        return bson_iter_as_int64(&found);
    return -1;
}

// The winning plan's stages, outermost first, following inputStage (and the first of
// inputStages): FETCH, IXSCAN… with the index an IXSCAN reads.
void walkPlan(bson_iter_t *stage, CollectionIndexes::Plan *plan, int depth)
{
    if (depth > 32)
        return;
    bson_iter_t child;
    bson_iter_t inner;
    QString name, index;
    bool descended = false;
    while (bson_iter_next(stage)) {
        const char *key = bson_iter_key(stage);
        if (!std::strcmp(key, "stage") && BSON_ITER_HOLDS_UTF8(stage))
            name = QString::fromUtf8(bson_iter_utf8(stage, nullptr));
        else if (!std::strcmp(key, "indexName") && BSON_ITER_HOLDS_UTF8(stage))
            index = QString::fromUtf8(bson_iter_utf8(stage, nullptr));
        else if (!descended && !std::strcmp(key, "inputStage") && BSON_ITER_HOLDS_DOCUMENT(stage) &&
                 bson_iter_recurse(stage, &child)) {
            descended = true;
            inner = child;
        } else if (!descended && !std::strcmp(key, "inputStages") && BSON_ITER_HOLDS_ARRAY(stage) &&
                   bson_iter_recurse(stage, &child) && bson_iter_next(&child) &&
                   BSON_ITER_HOLDS_DOCUMENT(&child) && bson_iter_recurse(&child, &inner)) {
            descended = true;
        }
    }
    if (!name.isEmpty())
        plan->stages << (index.isEmpty() ? name : name + QLatin1Char(' ') + index);
    if (!index.isEmpty() && plan->index.isEmpty())
        plan->index = index;
    if (descended)
        walkPlan(&inner, plan, depth + 1);
}

} // namespace

std::vector<CollectionIndexes::Index> CollectionIndexes::list(const ConnectionSettings &settings,
                                                              const QString &database,
                                                              const QString &collection,
                                                              SourceError *error)
{
    std::vector<Index> out;
    auto connection = MongoConnection::open(settings, error);
    if (!connection)
        return out;
    const QByteArray db = database.toUtf8();
    const QByteArray coll = collection.toUtf8();
    const CollectionHandle c(mongoc_client_get_collection(MongoDriver::client(*connection),
                                                          db.constData(), coll.constData()));
    const CursorHandle cursor(mongoc_collection_find_indexes_with_opts(c.get(), nullptr));
    const bson_t *doc = nullptr;
    while (mongoc_cursor_next(cursor.get(), &doc)) {
        Index index;
        bson_iter_t it;
        if (bson_iter_init_find(&it, doc, "name") && BSON_ITER_HOLDS_UTF8(&it))
            index.name = QString::fromUtf8(bson_iter_utf8(&it, nullptr));
        if (bson_iter_init_find(&it, doc, "key") && BSON_ITER_HOLDS_DOCUMENT(&it))
            index.keys = subdocumentJson(&it);
        for (const auto &[field, option] :
             {std::pair{"unique", "unique"}, std::pair{"sparse", "sparse"},
              std::pair{"partialFilterExpression", "partial"},
              std::pair{"expireAfterSeconds", "TTL"}})
            if (bson_iter_init_find(&it, doc, field) &&
                (!BSON_ITER_HOLDS_BOOL(&it) || bson_iter_bool(&it)))
                index.options << QString::fromLatin1(option);
        out.push_back(index);
    }
    bson_error_t e;
    if (mongoc_cursor_error(cursor.get(), &e)) {
        *error = MongoDriver::errorFrom(
            *connection, e,
            QStringLiteral("listing the indexes of %1.%2").arg(database, collection));
        out.clear();
    }
    return out;
}

CollectionIndexes::Plan CollectionIndexes::explain(const ConnectionSettings &settings,
                                                   const QString &database,
                                                   const QString &collection,
                                                   const QString &filterJson)
{
    Plan plan;
    plan.filter = filterJson;
    bson_error_t parseError;
    const auto filter = BsonDocument::fromJson(filterJson.toUtf8(), &parseError);
    if (!filter) {
        plan.error.kind = SourceError::Kind::Usage;
        plan.error.message = QStringLiteral("filter: not an extended JSON document (%1)")
                                 .arg(QString::fromUtf8(parseError.message));
        return plan;
    }
    auto connection = MongoConnection::open(settings, &plan.error);
    if (!connection)
        return plan;
    BsonDocument find;
    const QByteArray coll = collection.toUtf8();
    BSON_APPEND_UTF8(find.get(), "find", coll.constData());
    BSON_APPEND_DOCUMENT(find.get(), "filter", filter->get());
    BsonDocument command;
    BSON_APPEND_DOCUMENT(command.get(), "explain", find.get());
    BSON_APPEND_UTF8(command.get(), "verbosity", "executionStats");
    const QByteArray reply = connection->command(
        database, command.bytes(),
        QStringLiteral("explaining a read of %1.%2").arg(database, collection), &plan.error);
    if (reply.isEmpty())
        return plan;
    bson_t doc;
    bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(reply.constData()),
                     std::size_t(reply.size()));
    bson_iter_t it, winning, stage;
    if (bson_iter_init(&it, &doc) &&
        bson_iter_find_descendant(&it, "queryPlanner.winningPlan", &winning) &&
        BSON_ITER_HOLDS_DOCUMENT(&winning) && bson_iter_recurse(&winning, &stage)) {
        // MongoDB 6 may wrap the classic plan in queryPlan (slot-based execution).
        bson_iter_t probe = stage, inner;
        if (bson_iter_find(&probe, "queryPlan") && BSON_ITER_HOLDS_DOCUMENT(&probe) &&
            bson_iter_recurse(&probe, &inner))
            stage = inner;
        walkPlan(&stage, &plan, 0);
    }
    plan.keysExamined = numberAt(&doc, "executionStats.totalKeysExamined");
    plan.documentsExamined = numberAt(&doc, "executionStats.totalDocsExamined");
    plan.returned = numberAt(&doc, "executionStats.nReturned");
    return plan;
}

} // namespace oe
