// TallyRun's rows counted without record ids (TallyPipelines::Scope::recordIds): their first
// documents' record ids looked up by _id, and the scope's first and last record ids, so the
// rows read as the ones a $group with record ids gives (lo, hi, f: {r, i}).
#include "scan/internal/TallyRun.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string_view>

namespace oe {

using namespace tallyreply;

namespace {

// _ids a lookup names in one command (a few hundred KiB of $in).
constexpr std::size_t kIdsPerLookup = 20000;

// The _ids of a row's first documents ({i} each), where it has no record ids (no lo).
std::vector<std::string> firstIds(const bson_t *row)
{
    std::vector<std::string> ids;
    bson_iter_t it, list, entry, id;
    if (bson_iter_init_find(&it, row, "lo") || !bson_iter_init_find(&list, row, "f") ||
        !bson_iter_recurse(&list, &entry))
        return ids;
    while (bson_iter_next(&entry))
        if (BSON_ITER_HOLDS_DOCUMENT(&entry) && bson_iter_recurse(&entry, &id) &&
            bson_iter_find(&id, "i"))
            ids.push_back(rawIdAt(&id));
    return ids;
}

} // namespace

std::optional<std::int64_t> TallyRun::edgeRecordId(int direction)
{
    BsonDocument opts, filter;
    bson_t hint, projection;
    BSON_APPEND_DOCUMENT_BEGIN(opts.get(), "hint", &hint);
    BSON_APPEND_INT32(&hint, "$natural", direction);
    bson_append_document_end(opts.get(), &hint);
    BSON_APPEND_DOCUMENT_BEGIN(opts.get(), "projection", &projection);
    BSON_APPEND_INT32(&projection, "_id", 1);
    bson_append_document_end(opts.get(), &projection);
    BSON_APPEND_INT64(opts.get(), "limit", 1);
    BSON_APPEND_BOOL(opts.get(), "showRecordId", true);
    BSON_APPEND_INT32(opts.get(), "serverId", std::int32_t(m_serverId));
    const CollectionHandle c(mongoc_client_get_collection(
        MongoDriver::client(*m_connection), m_request.query.database.toUtf8().constData(),
        m_request.query.collection.toUtf8().constData()));
    const CursorHandle cursor(
        mongoc_collection_find_with_opts(c.get(), filter.get(), opts.get(), nullptr));
    const bson_t *doc = nullptr;
    std::int64_t r = 0;
    if (mongoc_cursor_next(cursor.get(), &doc)) {
        if (!recordIdAt(doc, "$recordId", &r)) {
            m_refusal = QStringLiteral("its record ids are no integers (a clustered collection)");
            return std::nullopt;
        }
        return r;
    }
    bson_error_t e;
    if (mongoc_cursor_error(cursor.get(), &e)) {
        m_error =
            MongoDriver::errorFrom(*m_connection, e, QStringLiteral("reading the first record id"));
        return std::nullopt;
    }
    return std::numeric_limits<std::int64_t>::min(); // (an empty collection)
}

bool TallyRun::placeRows(std::vector<BsonDocument> &rows)
{
    std::vector<std::string> ids;
    for (const BsonDocument &row : rows)
        for (std::string &id : firstIds(row.get()))
            ids.push_back(std::move(id));
    if (ids.empty())
        return true;
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::map<std::string, std::int64_t> recordIds;
    for (std::size_t from = 0; from < ids.size() && !cancelled(); from += kIdsPerLookup) {
        std::vector<QByteArray> batch;
        for (std::size_t i = from; i < std::min(ids.size(), from + kIdsPerLookup); ++i)
            batch.push_back(bsonraw::fromDocumentId(ids[i]));
        const bool ok =
            aggregate(TallyPipelines::recordIdsOf(batch),
                      QStringLiteral("reading the record ids of the tallies' first documents"),
                      [&](const bson_t *doc) {
                          bson_iter_t id;
                          std::int64_t r = 0;
                          if (!recordIdAt(doc, "r", &r)) {
                              m_refusal =
                                  QStringLiteral("its record ids are no integers (a clustered "
                                                 "collection)");
                              return false;
                          }
                          if (bson_iter_init_find(&id, doc, "_id"))
                              recordIds[rawIdAt(&id)] = r;
                          return true;
                      });
        if (!ok)
            return false;
    }
    const auto lo = edgeRecordId(1);
    const auto hi = lo ? edgeRecordId(-1) : std::nullopt;
    if (!lo || !hi || cancelled())
        return false;
    for (BsonDocument &row : rows)
        if (!firstIds(row.get()).empty())
            row = placed(row.get(), recordIds, *lo, *hi);
    return true;
}

// The row with lo and hi the scope's, and its first documents {r, i} by record id (one gone
// since the tallies is left out).
BsonDocument TallyRun::placed(const bson_t *row, const std::map<std::string, std::int64_t> &ids,
                              std::int64_t lo, std::int64_t hi)
{
    BsonDocument out;
    bson_iter_t it;
    bson_iter_init(&it, row);
    while (bson_iter_next(&it))
        if (std::string_view(bson_iter_key(&it)) != "f")
            bson_append_iter(out.get(), bson_iter_key(&it), -1, &it);
    BSON_APPEND_INT64(out.get(), "lo", lo);
    BSON_APPEND_INT64(out.get(), "hi", hi);
    std::vector<std::pair<std::int64_t, std::string>> firsts;
    for (std::string &id : firstIds(row))
        if (const auto at = ids.find(id); at != ids.end())
            firsts.emplace_back(at->second, std::move(id));
    std::sort(firsts.begin(), firsts.end());
    bson_t list, entry;
    BSON_APPEND_ARRAY_BEGIN(out.get(), "f", &list);
    for (std::size_t i = 0; i < firsts.size(); ++i) {
        BSON_APPEND_DOCUMENT_BEGIN(&list, std::to_string(i).c_str(), &entry);
        BSON_APPEND_INT64(&entry, "r", firsts[i].first);
        bsonraw::append(&entry, "i", 1, bsonraw::fromDocumentId(firsts[i].second));
        bson_append_document_end(&list, &entry);
    }
    bson_append_array_end(out.get(), &list);
    return out;
}

} // namespace oe
