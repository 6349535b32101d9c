#include "whatif/internal/WhatIfCalls.h"

#include "bson/internal/BsonDocument.h"

#include <bson/bson.h>

namespace oe {

namespace {

void appendUtf8(bson_t *d, const char *key, const QString &value)
{
    const QByteArray v = value.toUtf8();
    bson_append_utf8(d, key, -1, v.constData(), int(v.size()));
}

void appendDocument(bson_t *d, const char *key, const QByteArray &bytes)
{
    bson_t view;
    if (bson_init_static(&view, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                         std::size_t(bytes.size())))
        bson_append_document(d, key, -1, &view);
}

bool view(const QByteArray &bytes, bson_t *doc)
{
    return bson_init_static(doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

// The first write error of a write command's reply (code and message), if any.
bool writeError(const QByteArray &reply, int *code, QString *message)
{
    bson_t doc;
    bson_iter_t it, errors, first;
    if (!view(reply, &doc) || !bson_iter_init_find(&it, &doc, "writeErrors") ||
        !BSON_ITER_HOLDS_ARRAY(&it) || !bson_iter_recurse(&it, &errors) ||
        !bson_iter_next(&errors) || !bson_iter_recurse(&errors, &first))
        return false;
    while (bson_iter_next(&first)) {
        if (!strcmp(bson_iter_key(&first), "code"))
            *code = bson_iter_as_int64(&first) > 0 ? int(bson_iter_as_int64(&first)) : 0;
        else if (!strcmp(bson_iter_key(&first), "errmsg") && BSON_ITER_HOLDS_UTF8(&first))
            *message = QString::fromUtf8(bson_iter_utf8(&first, nullptr));
    }
    return true;
}

std::int64_t number(const QByteArray &reply, const char *key)
{
    bson_t doc;
    bson_iter_t it;
    return view(reply, &doc) && bson_iter_init_find(&it, &doc, key) ? bson_iter_as_int64(&it) : 0;
}

} // namespace

QByteArray WhatIfCalls::run(const QByteArray &command, const QString &step, SourceError *error)
{
    return m_connection.command(m_database, command, step, error);
}

bool WhatIfCalls::insert(const QString &collection, const std::vector<QByteArray> &documents,
                         SourceError *error)
{
    BsonDocument cmd;
    appendUtf8(cmd.get(), "insert", collection);
    bson_t list;
    BSON_APPEND_ARRAY_BEGIN(cmd.get(), "documents", &list);
    for (std::size_t i = 0; i < documents.size(); ++i)
        appendDocument(&list, std::to_string(i).c_str(), documents[i]);
    bson_append_array_end(cmd.get(), &list);
    const QByteArray reply =
        run(cmd.bytes(), QStringLiteral("inserting into %1").arg(collection), error);
    int code = 0;
    QString message;
    if (!reply.isEmpty() && writeError(reply, &code, &message)) {
        error->kind = SourceError::Kind::Connection;
        error->serverCode = code;
        error->message = QStringLiteral("inserting into %1: %2").arg(collection, message);
        return false;
    }
    return !reply.isEmpty();
}

bool WhatIfCalls::updateOne(const QString &collection, const QByteArray &filter,
                            const QByteArray &update, bool upsert, Update *result,
                            SourceError *error)
{
    BsonDocument cmd;
    appendUtf8(cmd.get(), "update", collection);
    bson_t list, statement;
    BSON_APPEND_ARRAY_BEGIN(cmd.get(), "updates", &list);
    BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &statement);
    appendDocument(&statement, "q", filter);
    appendDocument(&statement, "u", update);
    BSON_APPEND_BOOL(&statement, "upsert", upsert);
    bson_append_document_end(&list, &statement);
    bson_append_array_end(cmd.get(), &list);
    const QByteArray reply = run(cmd.bytes(), QStringLiteral("updating %1").arg(collection), error);
    if (reply.isEmpty())
        return false;
    *result = {};
    int code = 0;
    QString message;
    if (writeError(reply, &code, &message)) {
        if (code == 11000) {
            result->duplicateKey = true;
            return true;
        }
        error->kind = SourceError::Kind::Connection;
        error->serverCode = code;
        error->message = QStringLiteral("updating %1: %2").arg(collection, message);
        return false;
    }
    bson_t doc;
    bson_iter_t it;
    result->upserted = view(reply, &doc) && bson_iter_init_find(&it, &doc, "upserted");
    result->matched = result->upserted ? 0 : number(reply, "n");
    return true;
}

bool WhatIfCalls::findAndModify(const QString &collection, const QByteArray &filter,
                                const QByteArray &pipeline, const QByteArray &projection,
                                QByteArray *after, SourceError *error)
{
    BsonDocument cmd;
    appendUtf8(cmd.get(), "findAndModify", collection);
    appendDocument(cmd.get(), "query", filter);
    bson_t stages;
    if (view(pipeline, &stages))
        bson_append_array(cmd.get(), "update", -1, &stages);
    appendDocument(cmd.get(), "fields", projection);
    BSON_APPEND_BOOL(cmd.get(), "new", true);
    const QByteArray reply = run(cmd.bytes(), QStringLiteral("updating %1").arg(collection), error);
    if (reply.isEmpty())
        return false;
    after->clear();
    bson_t doc;
    bson_iter_t it;
    if (view(reply, &doc) && bson_iter_init_find(&it, &doc, "value") &&
        BSON_ITER_HOLDS_DOCUMENT(&it)) {
        std::uint32_t length = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_document(&it, &length, &data);
        *after = QByteArray(reinterpret_cast<const char *>(data), qsizetype(length));
    }
    return true;
}

bool WhatIfCalls::findOne(const QString &collection, const QByteArray &filter,
                          const QByteArray &sort, const QByteArray &projection,
                          QByteArray *document, SourceError *error)
{
    BsonDocument cmd;
    appendUtf8(cmd.get(), "find", collection);
    appendDocument(cmd.get(), "filter", filter);
    if (!sort.isEmpty())
        appendDocument(cmd.get(), "sort", sort);
    if (!projection.isEmpty())
        appendDocument(cmd.get(), "projection", projection);
    BSON_APPEND_INT64(cmd.get(), "limit", 1);
    BSON_APPEND_BOOL(cmd.get(), "singleBatch", true);
    const QByteArray reply = run(cmd.bytes(), QStringLiteral("reading %1").arg(collection), error);
    if (reply.isEmpty())
        return false;
    document->clear();
    bson_t doc;
    bson_iter_t it, batch;
    if (view(reply, &doc) && bson_iter_init(&it, &doc) &&
        bson_iter_find_descendant(&it, "cursor.firstBatch", &batch) &&
        BSON_ITER_HOLDS_ARRAY(&batch) && bson_iter_recurse(&batch, &it) && bson_iter_next(&it) &&
        BSON_ITER_HOLDS_DOCUMENT(&it)) {
        std::uint32_t length = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_document(&it, &length, &data);
        *document = QByteArray(reinterpret_cast<const char *>(data), qsizetype(length));
    }
    return true;
}

bool WhatIfCalls::createUniqueIndex(const QString &collection, const QString &a, const QString &b,
                                    SourceError *error)
{
    BsonDocument cmd;
    appendUtf8(cmd.get(), "createIndexes", collection);
    bson_t list, index, key;
    BSON_APPEND_ARRAY_BEGIN(cmd.get(), "indexes", &list);
    BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &index);
    BSON_APPEND_DOCUMENT_BEGIN(&index, "key", &key);
    BSON_APPEND_INT32(&key, a.toUtf8().constData(), 1);
    BSON_APPEND_INT32(&key, b.toUtf8().constData(), 1);
    bson_append_document_end(&index, &key);
    appendUtf8(&index, "name", a + QStringLiteral("_1_") + b + QStringLiteral("_1"));
    BSON_APPEND_BOOL(&index, "unique", true);
    bson_append_document_end(&list, &index);
    bson_append_array_end(cmd.get(), &list);
    return !run(cmd.bytes(), QStringLiteral("indexing %1").arg(collection), error).isEmpty();
}

bool WhatIfCalls::collections(QStringList *names, SourceError *error)
{
    BsonDocument cmd;
    BSON_APPEND_INT32(cmd.get(), "listCollections", 1);
    BSON_APPEND_BOOL(cmd.get(), "nameOnly", true);
    const QByteArray reply =
        run(cmd.bytes(), QStringLiteral("listing the scratch database"), error);
    if (reply.isEmpty())
        return false;
    names->clear();
    bson_t doc;
    bson_iter_t it, batch, entry;
    if (view(reply, &doc) && bson_iter_init(&it, &doc) &&
        bson_iter_find_descendant(&it, "cursor.firstBatch", &batch) &&
        bson_iter_recurse(&batch, &it))
        while (bson_iter_next(&it))
            if (bson_iter_recurse(&it, &entry) && bson_iter_find(&entry, "name"))
                *names << QString::fromUtf8(bson_iter_utf8(&entry, nullptr));
    return true;
}

bool WhatIfCalls::databaseExists(bool *exists, SourceError *error)
{
    BsonDocument cmd;
    BSON_APPEND_INT32(cmd.get(), "listDatabases", 1);
    BSON_APPEND_BOOL(cmd.get(), "nameOnly", true);
    const QByteArray reply = m_connection.command(QStringLiteral("admin"), cmd.bytes(),
                                                  QStringLiteral("listing databases"), error);
    if (reply.isEmpty())
        return false;
    *exists = false;
    bson_t doc;
    bson_iter_t it, list, entry;
    if (view(reply, &doc) && bson_iter_init_find(&it, &doc, "databases") &&
        bson_iter_recurse(&it, &list))
        while (bson_iter_next(&list))
            if (bson_iter_recurse(&list, &entry) && bson_iter_find(&entry, "name") &&
                QString::fromUtf8(bson_iter_utf8(&entry, nullptr)) == m_database)
                *exists = true;
    return true;
}

bool WhatIfCalls::dropDatabase(SourceError *error)
{
    BsonDocument cmd;
    BSON_APPEND_INT32(cmd.get(), "dropDatabase", 1);
    return !run(cmd.bytes(), QStringLiteral("dropping the scratch database"), error).isEmpty();
}

} // namespace oe
