#include "mongo/DumpImporter.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"
#include "source/DumpFileSource.h"

#include <QElapsedTimer>

#include <algorithm>

#include <mongoc/mongoc.h>

namespace oe {

namespace {

constexpr int kNamespaceNotFound = 26;

// One unordered bulk insert of batch documents [first, end); their bytes in `bytes`.
bool insertRange(const MongoConnection &connection, mongoc_collection_t *coll,
                 const DocumentBatch &batch, std::size_t first, std::size_t end,
                 const QString &dumpPath, const QString &ns, std::uint64_t *bytes,
                 SourceError *error)
{
    const BsonDocument opts = BsonDocument::adopt(BCON_NEW("ordered", BCON_BOOL(false)));
    const BulkHandle bulk(mongoc_collection_create_bulk_operation_with_opts(coll, opts.get()));
    // The dump's documents as they were stored (an empty key, "a.b", "$x"): the server judges.
    const BsonDocument insertOpts = BsonDocument::adopt(BCON_NEW("validate", BCON_BOOL(false)));
    *bytes = 0;
    for (std::size_t i = first; i < end; ++i) {
        const auto &entry = batch.documents[i];
        bson_t doc;
        if (!bson_init_static(&doc, batch.data(entry), entry.length)) {
            *error = SourceError::invalidData(dumpPath, QStringLiteral("malformed BSON document"),
                                              std::int64_t(entry.index),
                                              std::int64_t(entry.sourceOffset));
            return false;
        }
        bson_error_t refused;
        if (!mongoc_bulk_operation_insert_with_opts(bulk.get(), &doc, insertOpts.get(), &refused)) {
            *error = SourceError::invalidData(dumpPath, QString::fromUtf8(refused.message),
                                              std::int64_t(entry.index),
                                              std::int64_t(entry.sourceOffset));
            return false;
        }
        *bytes += entry.length;
    }
    BsonDocument reply;
    bson_error_t e;
    if (mongoc_bulk_operation_execute(bulk.get(), reply.reply(), &e) != 0)
        return true;
    *error = MongoDriver::errorFrom(connection, e,
                                    QStringLiteral("inserting documents #%1-#%2 into %3")
                                        .arg(batch.documents[first].index)
                                        .arg(batch.documents[end - 1].index)
                                        .arg(ns));
    return false;
}

} // namespace

bool DumpImporter::run(const ConnectionSettings &settings, const QString &database,
                       const QString &collection, const QString &dumpPath, const Options &options,
                       Result *result, SourceError *error, const std::atomic<bool> *cancel,
                       const Progress &progress)
{
    QElapsedTimer clock;
    clock.start();
    *result = {};
    DumpFileSource dump(dumpPath);
    if (!dump.open(error))
        return false;
    auto connection = MongoConnection::open(settings, error);
    if (!connection)
        return false;
    const QString ns = database + QLatin1Char('.') + collection;
    const CollectionHandle coll(mongoc_client_get_collection(MongoDriver::client(*connection),
                                                             database.toUtf8().constData(),
                                                             collection.toUtf8().constData()));
    bson_error_t e;
    if (options.drop && !mongoc_collection_drop(coll.get(), &e) && e.code != kNamespaceNotFound) {
        *error = MongoDriver::errorFrom(*connection, e, QStringLiteral("dropping %1").arg(ns));
        return false;
    }

    const std::size_t perBulk = std::max<std::size_t>(options.batchDocuments, 1);
    DocumentBatch batch;
    for (;;) {
        if (cancel && cancel->load())
            break;
        SourceError readError;
        const auto status = dump.read(batch, options.batchBytes, &readError);
        for (std::size_t i = 0; i < batch.documents.size();) {
            const std::size_t end = std::min(batch.documents.size(), i + perBulk);
            std::uint64_t bytes = 0;
            if (!insertRange(*connection, coll.get(), batch, i, end, dumpPath, ns, &bytes, error))
                return false;
            result->documents += end - i;
            result->bytes += bytes;
            result->seconds = double(clock.nsecsElapsed()) / 1e9;
            if (progress)
                progress(*result);
            i = end;
        }
        if (status == DocumentSource::ReadResult::Error) {
            *error = readError;
            return false;
        }
        if (status == DocumentSource::ReadResult::End)
            break;
    }
    result->seconds = double(clock.nsecsElapsed()) / 1e9;
    return true;
}

} // namespace oe
