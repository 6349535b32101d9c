#include "mongo/internal/CollectionOps.h"
#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include "bson/internal/BsonDocument.h"

#include <QElapsedTimer>

#include <span>

namespace oe {

CollectionOps::CollectionOps(MongoConnection &connection, const QString &database,
                             const QString &collection)
    : m_connection(connection),
      m_collection(mongoc_client_get_collection(MongoDriver::client(connection),
                                                database.toUtf8().constData(),
                                                collection.toUtf8().constData())),
      m_database(database), m_name(collection), m_ns(database + QLatin1Char('.') + collection)
{
    // Migration reads must see what it just wrote: always the primary, whatever the URI says.
    const ReadPrefsHandle primary(mongoc_read_prefs_new(MONGOC_READ_PRIMARY));
    mongoc_collection_set_read_prefs(m_collection.get(), primary.get());
}

CollectionOps::~CollectionOps() = default;

QByteArray CollectionOps::toBytes(const bson_t *doc)
{
    return QByteArray(reinterpret_cast<const char *>(bson_get_data(doc)), qsizetype(doc->len));
}

bool CollectionOps::view(const QByteArray &bytes, bson_t *doc)
{
    return bson_init_static(doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

bool CollectionOps::bulk(const std::vector<Write> &writes, const QString &step, SourceError *error)
{
    // Commands of at most writePacer().perCommand() documents written each (a statement that
    // may write more goes alone), timed, so the pacer can keep every command short.
    WritePacer &pacer = m_connection.writePacer();
    for (std::size_t i = 0; i < writes.size();) {
        const std::size_t limit = pacer.perCommand();
        std::size_t end = i, weight = 0;
        while (end < writes.size() && (end == i || weight + writes[end].documents <= limit))
            weight += writes[end++].documents;
        QElapsedTimer clock;
        clock.start();
        if (!command(writes.data() + i, end - i, step, error))
            return false;
        pacer.record(weight, double(clock.nsecsElapsed()) / 1e9);
        i = end;
    }
    return true;
}

// A statement's options: its own (a collation), the upsert where it is one, and no client-side
// check of the keys: a document holds what MongoDB stored (an empty key, "a.b", "$x"), and a
// value read from it is written back as it was; the server judges what it accepts.
BsonDocument CollectionOps::statementOptions(const Write &w)
{
    BsonDocument options;
    bson_t given;
    if (!w.options.isEmpty() && view(w.options, &given))
        bson_concat(options.get(), &given);
    if (w.kind == Write::Kind::ReplaceUpsert || w.kind == Write::Kind::UpdateOneUpsert)
        bson_append_bool(options.get(), "upsert", -1, true);
    if (w.kind != Write::Kind::DeleteMany)
        bson_append_bool(options.get(), "validate", -1, false);
    return options;
}

bool CollectionOps::command(const Write *writes, std::size_t count, const QString &step,
                            SourceError *error)
{
    const BsonDocument opts = BsonDocument::adopt(BCON_NEW("ordered", BCON_BOOL(false)));
    const BulkHandle owner(
        mongoc_collection_create_bulk_operation_with_opts(m_collection.get(), opts.get()));
    mongoc_bulk_operation_t *bulk = owner.get();
    bson_error_t e;
    bool ok = true;
    for (const Write &w : std::span(writes, count)) {
        bson_t filter, doc;
        view(w.filter, &filter);
        view(w.document, &doc);
        const BsonDocument options = statementOptions(w);
        switch (w.kind) {
        case Write::Kind::ReplaceUpsert:
        case Write::Kind::ReplaceOne:
            ok =
                mongoc_bulk_operation_replace_one_with_opts(bulk, &filter, &doc, options.get(), &e);
            break;
        case Write::Kind::UpdateOne:
        case Write::Kind::UpdateOneUpsert:
            ok = mongoc_bulk_operation_update_one_with_opts(bulk, &filter, &doc, options.get(), &e);
            break;
        case Write::Kind::UpdateMany:
            ok =
                mongoc_bulk_operation_update_many_with_opts(bulk, &filter, &doc, options.get(), &e);
            break;
        case Write::Kind::DeleteMany:
            ok = mongoc_bulk_operation_remove_many_with_opts(bulk, &filter, nullptr, &e);
            break;
        case Write::Kind::Insert:
            ok = mongoc_bulk_operation_insert_with_opts(bulk, &doc, options.get(), &e);
            break;
        }
        if (!ok)
            break;
    }
    if (ok) {
        BsonDocument reply;
        ok = mongoc_bulk_operation_execute(bulk, reply.reply(), &e) != 0;
    }
    if (!ok)
        *error = MongoDriver::errorFrom(m_connection, e,
                                        step + QStringLiteral(" (") + m_ns + QLatin1Char(')'));
    return ok;
}

bool CollectionOps::find(const QByteArray &filterBytes, const QByteArray &optsBytes,
                         const QString &step, const std::function<bool(const QByteArray &)> &visit,
                         SourceError *error)
{
    bson_t filter, opts;
    view(filterBytes, &filter);
    const bool haveOpts = !optsBytes.isEmpty() && view(optsBytes, &opts);
    const CursorHandle cursor(mongoc_collection_find_with_opts(
        m_collection.get(), &filter, haveOpts ? &opts : nullptr, nullptr));
    const bson_t *doc = nullptr;
    bool stopped = false;
    while (!stopped && mongoc_cursor_next(cursor.get(), &doc))
        stopped = !visit(toBytes(doc));
    bson_error_t e;
    const bool failed = mongoc_cursor_error(cursor.get(), &e);
    if (failed)
        *error = MongoDriver::errorFrom(m_connection, e,
                                        step + QStringLiteral(" (") + m_ns + QLatin1Char(')'));
    return !failed;
}

std::int64_t CollectionOps::count(const QByteArray &filterBytes, const QString &step,
                                  SourceError *error)
{
    bson_t filter;
    view(filterBytes, &filter);
    bson_error_t e;
    const std::int64_t n = mongoc_collection_count_documents(m_collection.get(), &filter, nullptr,
                                                             nullptr, nullptr, &e);
    if (n < 0)
        *error = MongoDriver::errorFrom(m_connection, e,
                                        step + QStringLiteral(" (") + m_ns + QLatin1Char(')'));
    return n;
}

bool CollectionOps::exists(SourceError *error)
{
    return MongoDriver::collectionExists(m_connection, m_database, m_name,
                                         QStringLiteral("looking up %1").arg(m_ns), error)
        .value_or(false);
}

bool CollectionOps::createUniqueIndex(const QStringList &keys, const QString &step,
                                      SourceError *error)
{
    BsonDocument index;
    QStringList nameParts;
    for (const QString &k : keys) {
        BSON_APPEND_INT32(index.get(), k.toUtf8().constData(), 1);
        nameParts << k + QStringLiteral("_1");
    }
    const QByteArray name = nameParts.join(QLatin1Char('_')).toUtf8();
    const BsonDocument cmd = BsonDocument::adopt(
        BCON_NEW("createIndexes", BCON_UTF8(m_name.toUtf8().constData()), "indexes", "[", "{",
                 "key", BCON_DOCUMENT(index.get()), "name", BCON_UTF8(name.constData()), "unique",
                 BCON_BOOL(true), "}", "]"));
    BsonDocument reply;
    bson_error_t e;
    const bool ok = mongoc_collection_write_command_with_opts(m_collection.get(), cmd.get(),
                                                              nullptr, reply.reply(), &e);
    if (!ok)
        *error = MongoDriver::errorFrom(m_connection, e,
                                        step + QStringLiteral(" (") + m_ns + QLatin1Char(')'));
    return ok;
}

QString CollectionOps::indexName(const QStringList &keys)
{
    QStringList parts;
    for (const QString &k : keys)
        parts << k + QStringLiteral("_1");
    return parts.join(QLatin1Char('_'));
}

bool CollectionOps::ensureIndex(const QStringList &keys, const QString &step, bool *created,
                                SourceError *error)
{
    *created = false;
    BsonDocument index;
    for (const QString &k : keys) {
        const QByteArray key = k.toUtf8();
        bson_append_int32(index.get(), key.constData(), int(key.size()), 1);
    }
    const QByteArray name = indexName(keys).toUtf8();
    const BsonDocument cmd = BsonDocument::adopt(
        BCON_NEW("createIndexes", BCON_UTF8(m_name.toUtf8().constData()), "indexes", "[", "{",
                 "key", BCON_DOCUMENT(index.get()), "name", BCON_UTF8(name.constData()), "}", "]"));
    BsonDocument reply;
    bson_error_t e;
    if (!mongoc_collection_write_command_with_opts(m_collection.get(), cmd.get(), nullptr,
                                                   reply.reply(), &e)) {
        // 85, IndexOptionsConflict: the same keys under another name (the user's own index).
        if (e.code == 85)
            return true;
        *error = MongoDriver::errorFrom(m_connection, e,
                                        step + QStringLiteral(" (") + m_ns + QLatin1Char(')'));
        return false;
    }
    bson_iter_t before, after;
    *created = bson_iter_init_find(&before, reply.get(), "numIndexesBefore") &&
               bson_iter_init_find(&after, reply.get(), "numIndexesAfter") &&
               bson_iter_as_int64(&after) > bson_iter_as_int64(&before);
    return true;
}

bool CollectionOps::drop(const QString &step, SourceError *error)
{
    bson_error_t e;
    // 26, NamespaceNotFound: gone already.
    if (mongoc_collection_drop_with_opts(m_collection.get(), nullptr, &e) || e.code == 26)
        return true;
    *error = MongoDriver::errorFrom(m_connection, e,
                                    step + QStringLiteral(" (") + m_ns + QLatin1Char(')'));
    return false;
}

bool CollectionOps::dropIndex(const QString &name, const QString &step, SourceError *error)
{
    const QByteArray index = name.toUtf8();
    const BsonDocument cmd =
        BsonDocument::adopt(BCON_NEW("dropIndexes", BCON_UTF8(m_name.toUtf8().constData()), "index",
                                     BCON_UTF8(index.constData())));
    BsonDocument reply;
    bson_error_t e;
    // 27, IndexNotFound: dropped already (a rollback run again).
    if (mongoc_collection_write_command_with_opts(m_collection.get(), cmd.get(), nullptr,
                                                  reply.reply(), &e) ||
        e.code == 27)
        return true;
    *error = MongoDriver::errorFrom(m_connection, e,
                                    step + QStringLiteral(" (") + m_ns + QLatin1Char(')'));
    return false;
}

} // namespace oe
