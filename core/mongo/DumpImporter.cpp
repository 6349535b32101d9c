#include "DumpImporter.h"
#include "MongoDriver.h"

#include "BsonDocument.h"
#include "DumpFileSource.h"
#include "MongoConnection.h"

#include <QElapsedTimer>

#include <mongoc/mongoc.h>

namespace oe {

namespace {
constexpr int kNamespaceNotFound = 26;
}

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
    mongoc_collection_t *coll = mongoc_client_get_collection(MongoDriver::client(*connection),
                                                             database.toUtf8().constData(),
                                                             collection.toUtf8().constData());
    struct Guard
    {
        mongoc_collection_t *c;
        ~Guard() { mongoc_collection_destroy(c); }
    } guard{coll};

    bson_error_t e;
    if (options.drop && !mongoc_collection_drop(coll, &e) && e.code != kNamespaceNotFound) {
        *error = MongoDriver::errorFrom(*connection, e, QStringLiteral("dropping %1").arg(ns));
        return false;
    }

    DocumentBatch batch;
    bool ok = true;
    for (;;) {
        if (cancel && cancel->load())
            break;
        SourceError readError;
        const auto status = dump.read(batch, options.batchBytes, &readError);
        std::size_t i = 0;
        while (i < batch.documents.size()) {
            const BsonDocument opts = BsonDocument::adopt(BCON_NEW("ordered", BCON_BOOL(false)));
            mongoc_bulk_operation_t *bulk =
                mongoc_collection_create_bulk_operation_with_opts(coll, opts.get());
            const std::size_t first = i;
            std::uint64_t bytes = 0;
            for (; i < batch.documents.size() && i - first < options.batchDocuments; ++i) {
                const auto &entry = batch.documents[i];
                bson_t doc;
                if (!bson_init_static(&doc, batch.data(entry), entry.length)) {
                    mongoc_bulk_operation_destroy(bulk);
                    *error = SourceError::invalidData(
                        dumpPath, QStringLiteral("malformed BSON document"),
                        std::int64_t(entry.index), std::int64_t(entry.sourceOffset));
                    return false;
                }
                mongoc_bulk_operation_insert(bulk, &doc);
                bytes += entry.length;
            }
            BsonDocument reply;
            const bool written = mongoc_bulk_operation_execute(bulk, reply.reply(), &e) != 0;
            mongoc_bulk_operation_destroy(bulk);
            if (!written) {
                *error =
                    MongoDriver::errorFrom(*connection, e,
                                           QStringLiteral("inserting documents #%1-#%2 into %3")
                                               .arg(batch.documents[first].index)
                                               .arg(batch.documents[i - 1].index)
                                               .arg(ns));
                return false;
            }
            result->documents += i - first;
            result->bytes += bytes;
            result->seconds = double(clock.nsecsElapsed()) / 1e9;
            if (progress)
                progress(*result);
        }
        if (status == DocumentSource::ReadResult::Error) {
            *error = readError;
            ok = false;
            break;
        }
        if (status == DocumentSource::ReadResult::End)
            break;
    }
    result->seconds = double(clock.nsecsElapsed()) / 1e9;
    return ok;
}

} // namespace oe
