#include "mongo/CollectionBrowser.h"

#include "bson/JsonIndenter.h"
#include "bson/LongestArray.h"
#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include <QElapsedTimer>

namespace oe {

namespace {

BrowsedDocument describe(const bson_t *doc, const QByteArray &flagField)
{
    BrowsedDocument d;
    d.bson = QByteArray(reinterpret_cast<const char *>(bson_get_data(doc)), qsizetype(doc->len));
    d.size = doc->len;
    bson_iter_t it;
    if (bson_iter_init_find(&it, doc, "_id")) {
        // The _id alone, as relaxed JSON: a one-field document of it.
        BsonDocument one;
        bson_append_iter(one.get(), "_id", 3, &it);
        std::size_t length = 0;
        char *json = bson_as_relaxed_extended_json(one.get(), &length);
        // Compact, as the outlier table and the CSV reports write an _id: {"_id":VALUE}.
        const QString text = QString::fromStdString(JsonIndenter::compact(json, length));
        bson_free(json);
        d.id = text.mid(7, text.size() - 8);
    }
    if (!flagField.isEmpty() && bson_iter_init_find(&it, doc, flagField.constData()) &&
        BSON_ITER_HOLDS_BOOL(&it))
        d.flagged = bson_iter_bool(&it);
    const LongestArray longest = LongestArray::of(bson_get_data(doc), doc->len);
    d.longestArrayPath = longest.path;
    d.longestArrayLength = longest.length;
    return d;
}

// How many documents the filter matches: without a filter the collection's metadata (instant
// on any server); with one, countDocuments under a time limit (none if it runs out). A server
// that says it ran out long before it could have (a limit it does not keep) is asked again
// without one.
std::optional<std::int64_t> count(mongoc_collection_t *c, const BsonDocument &filter,
                                  bool everything)
{
    bson_error_t e;
    if (everything) {
        const std::int64_t n =
            mongoc_collection_estimated_document_count(c, nullptr, nullptr, nullptr, &e);
        return n >= 0 ? std::optional<std::int64_t>(n) : std::nullopt;
    }
    QElapsedTimer clock;
    clock.start();
    BsonDocument opts;
    BSON_APPEND_INT64(opts.get(), "maxTimeMS", CollectionBrowser::kCountTimeMs);
    std::int64_t n =
        mongoc_collection_count_documents(c, filter.get(), opts.get(), nullptr, nullptr, &e);
    const bool outOfTime = e.domain == MONGOC_ERROR_SERVER && e.code == 50; // MaxTimeMSExpired
    if (n < 0 && outOfTime && clock.elapsed() < CollectionBrowser::kCountTimeMs / 2)
        n = mongoc_collection_count_documents(c, filter.get(), nullptr, nullptr, nullptr, &e);
    return n >= 0 ? std::optional<std::int64_t>(n) : std::nullopt;
}

std::optional<BsonDocument> parsed(const QString &json)
{
    return BsonDocument::fromJson(json.trimmed().isEmpty() ? QByteArrayLiteral("{}")
                                                           : json.toUtf8());
}

} // namespace

BrowsedPage CollectionBrowser::find(const ConnectionSettings &settings, const QString &database,
                                    const QString &collection, const DocumentQuery &query,
                                    const std::atomic<bool> *cancel)
{
    BrowsedPage page;
    if (const QString problem = query.problem(); !problem.isEmpty()) {
        page.error.kind = SourceError::Kind::Usage;
        page.error.message = problem;
        return page;
    }
    auto connection = MongoConnection::open(settings, &page.error);
    if (!connection)
        return page;
    const QByteArray db = database.toUtf8();
    const QByteArray coll = collection.toUtf8();
    const CollectionHandle c(mongoc_client_get_collection(MongoDriver::client(*connection),
                                                          db.constData(), coll.constData()));
    auto filter = parsed(query.filter);
    BsonDocument opts;
    BSON_APPEND_INT64(opts.get(), "skip", query.skip);
    BSON_APPEND_INT64(opts.get(), "limit", query.limit + 1);
    if (!query.projection.trimmed().isEmpty())
        BSON_APPEND_DOCUMENT(opts.get(), "projection", parsed(query.projection)->get());
    if (!query.sort.trimmed().isEmpty())
        BSON_APPEND_DOCUMENT(opts.get(), "sort", parsed(query.sort)->get());
    const QByteArray flag = query.flagField.toUtf8();
    const QString step = QStringLiteral("finding documents in %1.%2").arg(database, collection);
    {
        const CursorHandle cursor(
            mongoc_collection_find_with_opts(c.get(), filter->get(), opts.get(), nullptr));
        const bson_t *doc = nullptr;
        while (mongoc_cursor_next(cursor.get(), &doc)) {
            if (cancel && cancel->load())
                return page;
            if (std::int64_t(page.documents.size()) == query.limit) {
                page.hasMore = true;
                break;
            }
            page.documents.push_back(describe(doc, flag));
        }
        bson_error_t e;
        if (mongoc_cursor_error(cursor.get(), &e)) {
            page.error = MongoDriver::errorFrom(*connection, e, step);
            page.documents.clear();
            return page;
        }
    }
    page.matching = count(c.get(), *filter, query.filter.trimmed().isEmpty());
    return page;
}

} // namespace oe
