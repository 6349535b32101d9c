#include "mongo/internal/UnexplainedReader.h"

#include "bson/DocumentId.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonIter.h"
#include "measure/MeasureReply.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include <cstring>
#include <string>
#include <unordered_map>

namespace oe {

namespace {

// An _id element's type and value bytes (its key left out): equal values, equal keys.
std::string idKey(const bson_iter_t *id)
{
    std::string key(1, char(bson_iter_type(id)));
    key.append(reinterpret_cast<const char *>(bsoniter::container(id) + bsoniter::valueOffset(id)),
               bsoniter::valueLength(id));
    return key;
}

} // namespace

bool UnexplainedReader::resolve(const MongoConnection &connection, mongoc_collection_t *collection,
                                const MeasurePlan &plan,
                                const std::unordered_set<std::string> *unseen, qint64 maxTimeMs,
                                DocumentBatch &batch, SourceError *error)
{
    std::vector<std::size_t> unexplained;
    BsonDocument filter;
    bson_t condition, ids;
    BSON_APPEND_DOCUMENT_BEGIN(filter.get(), "_id", &condition);
    BSON_APPEND_ARRAY_BEGIN(&condition, "$in", &ids);
    for (std::size_t i = 0; i < batch.documents.size(); ++i) {
        const DocumentBatch::Entry &e = batch.documents[i];
        const auto reply = MeasureReply::parse(batch.data(e), e.length, plan, nullptr);
        if (!reply || reply->idLength == 0)
            continue;
        bson_t doc;
        bson_iter_t id;
        if (!bson_init_static(&doc, batch.data(e), e.length) ||
            !bson_iter_init_find(&id, &doc, "_id"))
            continue;
        const bool seen =
            !unseen || unseen->empty() ||
            !unseen->count(DocumentId::raw(int(bson_iter_type(&id)),
                                           bsoniter::container(&id) + bsoniter::valueOffset(&id),
                                           bsoniter::valueLength(&id)));
        if (seen && reply->explained(plan))
            continue;
        const std::string key = std::to_string(unexplained.size());
        bson_append_iter(&ids, key.c_str(), -1, &id);
        unexplained.push_back(i);
    }
    bson_append_array_end(&condition, &ids);
    bson_append_document_end(filter.get(), &condition);
    if (unexplained.empty())
        return true;

    BsonDocument opts;
    if (maxTimeMs > 0)
        BSON_APPEND_INT64(opts.get(), "maxTimeMS", maxTimeMs);
    CursorHandle cursor(
        mongoc_collection_find_with_opts(collection, filter.get(), opts.get(), nullptr));
    std::unordered_map<std::string, QByteArray> whole;
    const bson_t *doc = nullptr;
    while (mongoc_cursor_next(cursor.get(), &doc)) {
        bson_iter_t id;
        if (bson_iter_init_find(&id, doc, "_id"))
            whole.emplace(idKey(&id), MeasureReply::whole(bson_get_data(doc), doc->len));
    }
    bson_error_t e;
    if (mongoc_cursor_error(cursor.get(), &e)) {
        *error = MongoDriver::errorFrom(
            connection, e,
            QStringLiteral("reading whole the documents the server's figures did not explain"));
        error->docIndex = -1;
        return false;
    }
    if (whole.empty())
        return true;

    // The batch again, each document read whole in its measurement's place.
    DocumentBatch rebuilt;
    rebuilt.documents.reserve(batch.documents.size());
    std::size_t next = 0;
    for (std::size_t i = 0; i < batch.documents.size(); ++i) {
        const DocumentBatch::Entry &e = batch.documents[i];
        const std::uint8_t *data = batch.data(e);
        std::uint32_t length = e.length;
        if (next < unexplained.size() && unexplained[next] == i) {
            ++next;
            bson_t reply;
            bson_iter_t id;
            if (bson_init_static(&reply, data, length) && bson_iter_init_find(&id, &reply, "_id")) {
                if (auto it = whole.find(idKey(&id)); it != whole.end()) {
                    data = reinterpret_cast<const std::uint8_t *>(it->second.constData());
                    length = std::uint32_t(it->second.size());
                }
            }
        }
        const std::size_t at = rebuilt.bytes.size();
        rebuilt.bytes.resize(at + length);
        std::memcpy(rebuilt.bytes.data() + at, data, length);
        rebuilt.documents.push_back({std::uint32_t(at), length, e.index, e.sourceOffset});
    }
    batch = std::move(rebuilt);
    return true;
}

} // namespace oe
