#include "split/LogicalDocument.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/DocumentFetcher.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"
#include "split/DocumentSplitter.h"

#include <cstring>

namespace oe {

namespace {

// An int32/int64/double raw value (type byte + bytes) as a number; -1 if it is none.
std::int64_t integerOf(const QByteArray &raw)
{
    if (raw.size() == 5 && raw.at(0) == 0x10) {
        std::int32_t v;
        std::memcpy(&v, raw.constData() + 1, 4);
        return v;
    }
    if (raw.size() == 9 && (raw.at(0) == 0x12 || raw.at(0) == 0x01)) {
        if (raw.at(0) == 0x01) {
            double d;
            std::memcpy(&d, raw.constData() + 1, 8);
            return std::int64_t(d);
        }
        std::int64_t v;
        std::memcpy(&v, raw.constData() + 1, 8);
        return v;
    }
    return -1;
}

bool truthy(const QByteArray &raw)
{
    return raw.size() == 2 && raw.at(0) == 0x08 && raw.at(1) != 0;
}

// The pages linked to the primary's _id, in page order.
bool readPages(const MongoConnection &connection, const QString &database,
               const SplitConfig &config, const QByteArray &primary, std::vector<QByteArray> *pages,
               SourceError *error)
{
    bson_t doc;
    bson_iter_t id;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(primary.constData()),
                          std::size_t(primary.size())) ||
        !bson_iter_init_find(&id, &doc, "_id"))
        return true;
    BsonDocument filter;
    const QByteArray link = config.linkField.toUtf8();
    bson_append_iter(filter.get(), link.constData(), int(link.size()), &id);
    BsonDocument opts;
    BsonDocument sort;
    const QByteArray pageField = config.pageField.toUtf8();
    BSON_APPEND_INT32(sort.get(), pageField.constData(), 1);
    BSON_APPEND_DOCUMENT(opts.get(), "sort", sort.get());
    const QByteArray db = database.toUtf8();
    const QByteArray coll = config.overflowCollection.toUtf8();
    const CollectionHandle c(mongoc_client_get_collection(MongoDriver::client(connection),
                                                          db.constData(), coll.constData()));
    const CursorHandle cursor(
        mongoc_collection_find_with_opts(c.get(), filter.get(), opts.get(), nullptr));
    const bson_t *page = nullptr;
    while (mongoc_cursor_next(cursor.get(), &page))
        pages->emplace_back(reinterpret_cast<const char *>(bson_get_data(page)),
                            qsizetype(page->len));
    bson_error_t e;
    if (mongoc_cursor_error(cursor.get(), &e)) {
        *error = MongoDriver::errorFrom(connection, e,
                                        QStringLiteral("reading the pages from %1.%2")
                                            .arg(database, config.overflowCollection));
        return false;
    }
    return true;
}

} // namespace

LogicalDocument LogicalDocument::load(const ConnectionSettings &settings, const QString &database,
                                      const SplitConfig &configIn, const QString &idJson)
{
    LogicalDocument out;
    const SplitConfig config = configIn.withDefaults();
    out.primary =
        DocumentFetcher::fromCollection(settings, database, config.collection, idJson, &out.error);
    if (out.primary.isEmpty())
        return out;
    std::uint64_t kept = 0;
    QByteArray last;
    DocumentSplitter::arrayShape(out.primary, config.field, &kept, &last);
    out.places.push_back({QStringLiteral("primary"), -1, 0, kept});
    out.elements = kept;
    const QByteArray flag = DocumentSplitter::fieldValue(out.primary, config.flagField);
    if (!truthy(flag)) {
        out.stitched = out.primary;
        return out;
    }
    auto connection = MongoConnection::open(settings, &out.error);
    std::vector<QByteArray> pages;
    if (!connection || !readPages(*connection, database, config, out.primary, &pages, &out.error))
        return out;
    for (const QByteArray &page : pages) {
        std::uint64_t n = 0;
        DocumentSplitter::arrayShape(page, config.itemsField, &n, &last);
        const std::int64_t number = integerOf(DocumentSplitter::fieldValue(page, config.pageField));
        out.places.push_back(
            {QStringLiteral("%1, page %2").arg(config.overflowCollection).arg(number), number,
             out.elements, n});
        out.elements += n;
    }
    QString problem;
    if (!DocumentSplitter::reassemble(out.primary, pages, config, flag,
                                      DocumentSplitter::fieldValue(out.primary, config.countField),
                                      DocumentSplitter::fieldValue(out.primary, config.pagesField),
                                      &out.stitched, &problem)) {
        out.error.kind = SourceError::Kind::InvalidData;
        out.error.message =
            QStringLiteral("_id %1 could not be stitched from its pages: %2").arg(idJson, problem);
        out.stitched.clear();
        return out;
    }
    out.split = true;
    return out;
}

} // namespace oe
