#include "mongo/DocumentFetcher.h"
#include "mongo/internal/MongoDriver.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "mongo/MongoConnection.h"
#include "source/DumpFileSource.h"

#include <mongoc/mongoc.h>

namespace oe {

QByteArray DocumentFetcher::fromDump(const QString &path, std::uint64_t docIndex,
                                     SourceError *error, const std::atomic<bool> *cancel)
{
    QByteArray found;
    bool seen = false;
    const auto keep = [&](std::uint64_t, const QByteArray &document) {
        found = document;
        seen = true;
    };
    if (!someFromDump(path, {docIndex}, keep, error, cancel))
        return {};
    const QString where = DumpFileSource(path).displayName();
    if (cancel && cancel->load()) {
        *error = SourceError::io(where, QStringLiteral("cancelled"));
        return {};
    }
    if (!seen)
        *error = SourceError::io(
            where, QStringLiteral("the dump has no document #%1 (it changed since the analysis?)")
                       .arg(docIndex));
    return found;
}

QByteArray DocumentFetcher::fromCollection(const ConnectionSettings &settings,
                                           const QString &database, const QString &collection,
                                           const QString &idJson, SourceError *error)
{
    const QByteArray filterJson = QByteArrayLiteral("{\"_id\": ") + idJson.toUtf8() + '}';
    bson_error_t parseError;
    const auto filter = BsonDocument::fromJson(filterJson, &parseError);
    if (!filter) {
        error->kind = SourceError::Kind::Usage;
        error->message = QStringLiteral("the _id %1 is not valid extended JSON: %2")
                             .arg(idJson, QString::fromUtf8(parseError.message));
        return {};
    }
    auto connection = MongoConnection::open(settings, error);
    if (!connection)
        return {};
    BsonDocument opts;
    BSON_APPEND_INT64(opts.get(), "limit", 1);
    QByteArray result;
    const auto keep = [&](const bson_t *doc) {
        result = bsonraw::bytesOf(doc);
        return false;
    };
    if (!MongoDriver::find(
            *connection, database, collection, filter->get(), opts.get(),
            QStringLiteral("reading _id %1 from %2.%3").arg(idJson, database, collection), keep,
            error))
        return {};
    if (result.isEmpty())
        *error = SourceError::io(
            connection->redactedUri(),
            QStringLiteral("no document with _id %1 in %2.%3 (deleted since the analysis?)")
                .arg(idJson, database, collection));
    return result;
}

bool DocumentFetcher::someFromDump(const QString &path, const std::set<std::uint64_t> &indexes,
                                   const Visit &visit, SourceError *error,
                                   const std::atomic<bool> *cancel)
{
    if (indexes.empty())
        return true;
    DumpFileSource source(path);
    source.setCancelFlag(cancel);
    if (!source.open(error))
        return false;
    DocumentBatch batch;
    for (;;) {
        const auto result = source.read(batch, 4u << 20, error);
        for (const auto &doc : batch.documents)
            if (indexes.count(doc.index))
                visit(doc.index, QByteArray(reinterpret_cast<const char *>(batch.data(doc)),
                                            qsizetype(doc.length)));
        if (result == DocumentSource::ReadResult::End ||
            (!batch.documents.empty() && batch.documents.back().index >= *indexes.rbegin()))
            return true;
        if (result != DocumentSource::ReadResult::Batch)
            return false;
    }
}

bool DocumentFetcher::someFromCollection(const ConnectionSettings &settings,
                                         const QString &database, const QString &collection,
                                         const std::vector<std::string> &rawIds, const Visit &visit,
                                         SourceError *error)
{
    if (rawIds.empty())
        return true;
    BsonDocument filter;
    bson_t condition, ids;
    BSON_APPEND_DOCUMENT_BEGIN(filter.get(), "_id", &condition);
    BSON_APPEND_ARRAY_BEGIN(&condition, "$in", &ids);
    for (std::size_t i = 0; i < rawIds.size(); ++i) {
        const std::string key = std::to_string(i);
        bsonraw::append(&ids, key.c_str(), int(key.size()), bsonraw::fromDocumentId(rawIds[i]));
    }
    bson_append_array_end(&condition, &ids);
    bson_append_document_end(filter.get(), &condition);
    auto connection = MongoConnection::open(settings, error);
    if (!connection)
        return false;
    return MongoDriver::find(
        *connection, database, collection, filter.get(), nullptr,
        QStringLiteral("reading the outlier documents of %1.%2").arg(database, collection),
        [&](const bson_t *doc) {
            visit(0, bsonraw::bytesOf(doc));
            return true;
        },
        error);
}

} // namespace oe
