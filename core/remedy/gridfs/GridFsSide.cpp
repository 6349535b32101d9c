#include "remedy/gridfs/GridFsSide.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "mongo/internal/CollectionOps.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"
#include "remedy/ValueRewriter.h"

#include <mongoc/mongoc.h>

namespace oe {

namespace {

using BucketHandle = DriverHandle<mongoc_gridfs_bucket_t, mongoc_gridfs_bucket_destroy>;
using StreamHandle = DriverHandle<mongoc_stream_t, mongoc_stream_destroy>;

constexpr std::int32_t kTimeoutMs = 0; // the client's own socket timeout

// A raw value held in a one-field document, for its bson_value_t (valid while this lives).
class RawValue
{
public:
    explicit RawValue(const QByteArray &raw)
    {
        m_ok = bsonraw::append(m_holder.get(), "v", 1, raw) &&
               bson_iter_init_find(&m_it, m_holder.get(), "v");
    }
    bool ok() const { return m_ok; }
    const bson_value_t *value() const { return bson_iter_value(const_cast<bson_iter_t *>(&m_it)); }
    const bson_iter_t *iter() const { return &m_it; }

private:
    BsonDocument m_holder;
    bson_iter_t m_it{};
    bool m_ok = false;
};

// A value's bytes as its file holds them: a binary's data, a string's UTF-8.
QByteArray contentOf(const bson_iter_t *it)
{
    if (BSON_ITER_HOLDS_UTF8(it)) {
        std::uint32_t length = 0;
        const char *text = bson_iter_utf8(it, &length);
        return QByteArray(text, qsizetype(length));
    }
    bson_subtype_t subtype;
    std::uint32_t length = 0;
    const std::uint8_t *data = nullptr;
    bson_iter_binary(it, &subtype, &length, &data);
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(length));
}

// The raw value of a file's bytes, of the type (and binary subtype) of `like`.
QByteArray rawLike(const bson_iter_t *like, const QByteArray &bytes)
{
    BsonDocument holder;
    if (BSON_ITER_HOLDS_UTF8(like)) {
        bson_append_utf8(holder.get(), "v", 1, bytes.constData(), int(bytes.size()));
    } else {
        bson_subtype_t subtype;
        std::uint32_t length = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_binary(like, &subtype, &length, &data);
        static const std::uint8_t kNone = 0;
        bson_append_binary(
            holder.get(), "v", 1, subtype,
            bytes.isEmpty() ? &kNone : reinterpret_cast<const std::uint8_t *>(bytes.constData()),
            std::uint32_t(bytes.size()));
    }
    bson_iter_t it;
    return bson_iter_init_find(&it, holder.get(), "v") ? bsonraw::valueOf(&it) : QByteArray();
}

bool notFound(const bson_error_t &e)
{
    // Older libmongoc said INVALID_FILENAME for a missing id.
    return e.domain == MONGOC_ERROR_GRIDFS &&
           (e.code == MONGOC_ERROR_GRIDFS_BUCKET_FILE_NOT_FOUND ||
            e.code == MONGOC_ERROR_GRIDFS_INVALID_FILENAME);
}

SourceError failure(const MongoConnection &connection, const bson_error_t &e, const QString &step)
{
    return MongoDriver::errorFrom(connection, e, step);
}

} // namespace

GridFsSide::GridFsSide(MongoConnection &connection, QString database, RewriteConfig config)
    : m_connection(connection), m_database(std::move(database)), m_config(std::move(config))
{
}

std::int64_t GridFsSide::held(SourceError *error)
{
    CollectionOps files(m_connection, m_database, m_config.bucket + QStringLiteral(".files"));
    BsonDocument filter;
    bsonraw::appendText(filter.get(), "metadata.collection", m_config.collection);
    bsonraw::appendText(filter.get(), "metadata.path", m_config.path);
    return files.count(filter.bytes(), QStringLiteral("counting the files in %1").arg(files.ns()),
                       error);
}

bool GridFsSide::tidy(QStringList *notes, SourceError *error)
{
    const std::int64_t n = held(error);
    if (n < 0)
        return false;
    *notes << (n > 0 ? QStringLiteral("the GridFS bucket %1 keeps %2 files of this path, "
                                      "values of documents the application rewrote after the "
                                      "rewrite")
                           .arg(m_config.bucket)
                           .arg(n)
                     : QStringLiteral("the GridFS bucket %1 stays (a bucket is shared); none "
                                      "of its files is this rewrite's")
                           .arg(m_config.bucket));
    return true;
}

bool GridFsSide::isFree(SourceError *error)
{
    // A files document has its length, chunkSize and uploadDate; a chunk its files_id, n, data.
    const std::pair<QString, QByteArray> parts[] = {
        {QStringLiteral(".files"),
         R"({"$or": [{"length": {"$exists": false}}, {"chunkSize": {"$exists": false}},
                     {"uploadDate": {"$exists": false}}]})"},
        {QStringLiteral(".chunks"),
         R"({"$or": [{"files_id": {"$exists": false}}, {"n": {"$exists": false}},
                     {"data": {"$exists": false}}]})"}};
    for (const auto &[part, json] : parts) {
        const QString name = m_config.bucket + part;
        CollectionOps ops(m_connection, m_database, name);
        const std::optional<BsonDocument> filter = BsonDocument::fromJson(json);
        const std::optional<BsonDocument> opts =
            BsonDocument::fromJson(R"({"limit": 1, "projection": {"_id": 1}})");
        bool foreign = false;
        if (!filter || !opts ||
            !ops.find(
                filter->bytes(), opts->bytes(),
                QStringLiteral("checking the GridFS bucket %1").arg(m_config.bucket),
                [&](const QByteArray &) {
                    foreign = true;
                    return false;
                },
                error))
            return false;
        if (foreign) {
            error->kind = SourceError::Kind::Usage;
            error->message = QStringLiteral("GridFS bucket '%1': %2 holds documents that are not "
                                            "GridFS's; name another bucket")
                                 .arg(m_config.bucket, name);
            return false;
        }
    }
    return true;
}

// Opens the bucket; null with `error` set.
static BucketHandle openBucket(MongoConnection &connection, const QString &database,
                               const QString &bucket, SourceError *error)
{
    const DatabaseHandle db(
        mongoc_client_get_database(MongoDriver::client(connection), database.toUtf8().constData()));
    BsonDocument opts;
    bsonraw::appendText(opts.get(), "bucketName", bucket);
    bson_error_t e;
    BucketHandle handle(mongoc_gridfs_bucket_new(db.get(), opts.get(), nullptr, &e));
    if (!handle)
        *error = failure(connection, e, QStringLiteral("opening the GridFS bucket %1").arg(bucket));
    return handle;
}

bool GridFsSide::putOne(mongoc_gridfs_bucket_t *bucket, const RewriteEntry &entry,
                        SourceError *error)
{
    const RawValue fileId(entry.after), value(entry.before), parent(entry.id);
    if (!fileId.ok() || !value.ok() || !parent.ok())
        return true; // nothing to store: never written
    bson_error_t e;
    QByteArray content = contentOf(value.iter());
    // A run killed after storing it: the file is there whole (its files document is written
    // last), so the document may point to it already. Killed while storing it: chunks without
    // their file, taken away before it is stored again whole.
    const std::int64_t whole = isStored(entry.after, content.size(), error);
    if (whole != 0)
        return whole > 0;
    if (!dropChunks(entry.after, error))
        return false;
    BsonDocument opts;
    bson_t metadata;
    bson_append_document_begin(opts.get(), "metadata", -1, &metadata);
    bsonraw::appendText(&metadata, "collection", m_config.collection);
    bsonraw::appendText(&metadata, "path", m_config.path);
    bson_append_iter(&metadata, "parent", -1, parent.iter());
    const bool text = BSON_ITER_HOLDS_UTF8(value.iter());
    bson_append_utf8(&metadata, "type", -1, text ? "string" : "binary", -1);
    if (!text) {
        bson_subtype_t subtype;
        std::uint32_t length = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_binary(value.iter(), &subtype, &length, &data);
        bson_append_int32(&metadata, "subtype", -1, int(subtype));
    }
    bson_append_document_end(opts.get(), &metadata);
    const QByteArray name = (m_config.collection + QLatin1Char('.') + m_config.path +
                             QLatin1Char(' ') + ValueRewriter::toJson(entry.id).left(200))
                                .toUtf8();
    const QString step =
        QStringLiteral("storing a file in the GridFS bucket %1").arg(m_config.bucket);
    const StreamHandle stream(mongoc_gridfs_bucket_open_upload_stream_with_id(
        bucket, fileId.value(), name.constData(), opts.get(), &e));
    if (!stream) {
        *error = failure(m_connection, e, step);
        return false;
    }
    const bool wrote =
        content.isEmpty() ||
        mongoc_stream_write(stream.get(), content.data(), std::size_t(content.size()),
                            kTimeoutMs) == ssize_t(content.size());
    const bool closed = mongoc_stream_close(stream.get()) == 0;
    if (!wrote || !closed) {
        if (!mongoc_gridfs_bucket_stream_error(stream.get(), &e))
            bson_set_error(&e, MONGOC_ERROR_GRIDFS, 0, "the file was not written whole");
        *error = failure(m_connection, e, step);
        return false;
    }
    return true;
}

std::int64_t GridFsSide::isStored(const QByteArray &fileId, qsizetype length, SourceError *error)
{
    CollectionOps files(m_connection, m_database, m_config.bucket + QStringLiteral(".files"));
    BsonDocument filter;
    bsonraw::append(filter.get(), "_id", 3, fileId);
    bson_append_int64(filter.get(), "length", -1, std::int64_t(length));
    const std::int64_t found = files.count(
        filter.bytes(), QStringLiteral("looking for a stored file in %1").arg(files.ns()), error);
    return error->isError() ? -1 : found;
}

bool GridFsSide::dropChunks(const QByteArray &fileId, SourceError *error)
{
    CollectionOps chunks(m_connection, m_database, m_config.bucket + QStringLiteral(".chunks"));
    BsonDocument filter;
    bsonraw::append(filter.get(), "files_id", -1, fileId);
    return chunks.bulk({{CollectionOps::Write::Kind::DeleteMany, filter.bytes(), {}}},
                       QStringLiteral("removing the chunks of an unfinished file"), error);
}

bool GridFsSide::put(const std::vector<RewriteEntry> &entries, SourceError *error)
{
    const BucketHandle bucket = openBucket(m_connection, m_database, m_config.bucket, error);
    if (!bucket)
        return false;
    for (const RewriteEntry &entry : entries)
        if (!putOne(bucket.get(), entry, error))
            return false;
    return true;
}

bool GridFsSide::remove(const std::vector<RewriteEntry> &entries, SourceError *error)
{
    const BucketHandle bucket = openBucket(m_connection, m_database, m_config.bucket, error);
    if (!bucket)
        return false;
    for (const RewriteEntry &entry : entries) {
        const RawValue fileId(entry.after);
        bson_error_t e;
        // A file already gone (a run killed after removing it) is what was asked.
        if (fileId.ok() && !mongoc_gridfs_bucket_delete_by_id(bucket.get(), fileId.value(), &e) &&
            !notFound(e)) {
            *error = failure(
                m_connection, e,
                QStringLiteral("removing a file from the GridFS bucket %1").arg(m_config.bucket));
            return false;
        }
        if (fileId.ok() && !dropChunks(entry.after, error))
            return false;
    }
    return true;
}

bool GridFsSide::stored(const std::vector<RewriteEntry> &entries,
                        std::map<QByteArray, std::optional<QByteArray>> *values, SourceError *error)
{
    const BucketHandle bucket = openBucket(m_connection, m_database, m_config.bucket, error);
    if (!bucket)
        return false;
    for (const RewriteEntry &entry : entries) {
        (*values)[entry.id] = std::nullopt;
        const RawValue fileId(entry.after), value(entry.before);
        bson_error_t e;
        const StreamHandle stream(fileId.ok() ? mongoc_gridfs_bucket_open_download_stream(
                                                    bucket.get(), fileId.value(), &e)
                                              : nullptr);
        if (!stream && fileId.ok() && !notFound(e)) {
            *error = failure(
                m_connection, e,
                QStringLiteral("opening a file of the GridFS bucket %1").arg(m_config.bucket));
            return false;
        }
        if (!stream || !value.ok())
            continue; // no such file
        QByteArray bytes;
        char buffer[64 * 1024];
        ssize_t n = 0;
        while ((n = mongoc_stream_read(stream.get(), buffer, sizeof buffer, 1, kTimeoutMs)) > 0)
            bytes.append(buffer, qsizetype(n));
        if (n < 0) {
            mongoc_gridfs_bucket_stream_error(stream.get(), &e);
            *error = failure(
                m_connection, e,
                QStringLiteral("reading a file of the GridFS bucket %1").arg(m_config.bucket));
            return false;
        }
        (*values)[entry.id] = rawLike(value.iter(), bytes);
    }
    return true;
}

} // namespace oe
