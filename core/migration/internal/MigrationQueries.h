#pragma once

// Internal to core: the filters and updates of the live migration, as BSON bytes.

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "split/DocumentSplitter.h"
#include "split/SplitConfig.h"

#include <QByteArray>

#include <string>
#include <vector>

namespace oe::migration {

template <typename Fill> QByteArray build(const Fill &fill)
{
    BsonDocument doc;
    fill(doc.get());
    return doc.bytes();
}

inline void appendUtf8(bson_t *doc, const QString &key, const QString &value)
{
    const QByteArray k = key.toUtf8(), v = value.toUtf8();
    bson_append_utf8(doc, k.constData(), int(k.size()), v.constData(), int(v.size()));
}

// A raw boolean true (type 0x08, value 1).
inline QByteArray rawTrue()
{
    return QByteArray("\x08\x01", 2);
}

// The journal's run document of the array field `field`: {_id: "run:<field>"}.
inline QByteArray runDocumentId(const QString &field)
{
    return build(
        [&](bson_t *d) { appendUtf8(d, QStringLiteral("_id"), QStringLiteral("run:") + field); });
}

// {_id: id}
inline QByteArray byId(const QByteArray &idValue)
{
    return build([&](bson_t *d) { bsonraw::append(d, "_id", 3, idValue); });
}

// {<key>: {$in: [ids...]}}; the caller may append more top-level conditions.
inline void appendIn(bson_t *d, const QString &key, const std::vector<QByteArray> &values)
{
    bson_t cond, list;
    const QByteArray k = key.toUtf8();
    bson_append_document_begin(d, k.constData(), int(k.size()), &cond);
    BSON_APPEND_ARRAY_BEGIN(&cond, "$in", &list);
    for (std::size_t i = 0; i < values.size(); ++i)
        bsonraw::append(&list, std::to_string(i).c_str(), -1, values[i]);
    bson_append_array_end(&cond, &list);
    bson_append_document_end(d, &cond);
}

// The user's filter (extended JSON) as a document, or {} when none.
inline bool appendUserFilter(bson_t *d, const QString &filter)
{
    if (filter.trimmed().isEmpty())
        return true;
    const auto f = BsonDocument::fromJson(filter.toUtf8());
    if (!f)
        return false;
    bson_t list;
    BSON_APPEND_ARRAY_BEGIN(d, "$and", &list);
    BSON_APPEND_DOCUMENT(&list, "0", f->get());
    bson_append_array_end(d, &list);
    return true;
}

// Documents still to split: the user's filter, an array longer than keep, no flag yet.
inline QByteArray candidates(const SplitConfig &c)
{
    return build([&](bson_t *d) {
        appendUserFilter(d, c.filter);
        const QByteArray element = (c.field + QLatin1Char('.') + QString::number(c.keep)).toUtf8();
        bson_t exists, notFlagged;
        bson_append_document_begin(d, element.constData(), int(element.size()), &exists);
        BSON_APPEND_BOOL(&exists, "$exists", true);
        bson_append_document_end(d, &exists);
        const QByteArray flag = c.flagField.toUtf8();
        bson_append_document_begin(d, flag.constData(), int(flag.size()), &notFlagged);
        BSON_APPEND_BOOL(&notFlagged, "$ne", true);
        bson_append_document_end(d, &notFlagged);
    });
}

// A sharded collection's key fields with their values in `document` (null when missing, as the
// server takes them), so that mongos can route the update to the shard holding the document.
inline void appendShardKey(bson_t *d, const SplitConfig &c, const QByteArray &document)
{
    for (const QString &path : c.shardKey) {
        if (path == QLatin1String("_id"))
            continue;
        const QByteArray k = path.toUtf8();
        const QByteArray value = DocumentSplitter::fieldValue(document, path);
        if (value.isEmpty())
            bson_append_null(d, k.constData(), int(k.size()));
        else
            bsonraw::append(d, k.constData(), int(k.size()), value);
    }
}

// {_id: id, <shard key fields>: values}: one document of the collection, by its _id and, on a
// sharded collection, its shard key as `document` holds it.
inline QByteArray byIdAndKey(const SplitConfig &c, const QByteArray &idValue,
                             const QByteArray &document)
{
    return build([&](bson_t *d) {
        bsonraw::append(d, "_id", 3, idValue);
        appendShardKey(d, c, document);
    });
}

// The guard proving a document is as it was read: same _id (and shard key, from `document`),
// same array length, same last element, and the flag still in the state expected.
inline QByteArray guard(const SplitConfig &c, const QByteArray &idValue, std::uint64_t length,
                        const QByteArray &lastElement, bool flagged, const QByteArray &document)
{
    return build([&](bson_t *d) {
        bsonraw::append(d, "_id", 3, idValue);
        appendShardKey(d, c, document);
        const QByteArray field = c.field.toUtf8();
        bson_t size, flag;
        bson_append_document_begin(d, field.constData(), int(field.size()), &size);
        BSON_APPEND_INT64(&size, "$size", std::int64_t(length));
        bson_append_document_end(d, &size);
        if (length > 0) {
            const QByteArray last =
                (c.field + QLatin1Char('.') + QString::number(length - 1)).toUtf8();
            bsonraw::append(d, last.constData(), int(last.size()), lastElement);
        }
        const QByteArray f = c.flagField.toUtf8();
        if (flagged) {
            bson_append_bool(d, f.constData(), int(f.size()), true);
        } else {
            bson_append_document_begin(d, f.constData(), int(f.size()), &flag);
            BSON_APPEND_BOOL(&flag, "$ne", true);
            bson_append_document_end(d, &flag);
        }
    });
}

// {$or: [filters...]}: one statement for several documents (each filter names one _id).
inline QByteArray anyOf(const std::vector<QByteArray> &filters)
{
    return build([&](bson_t *d) {
        bson_t list;
        BSON_APPEND_ARRAY_BEGIN(d, "$or", &list);
        for (std::size_t i = 0; i < filters.size(); ++i) {
            bson_t f;
            const std::uint8_t *data =
                reinterpret_cast<const std::uint8_t *>(filters[i].constData());
            if (bson_init_static(&f, data, std::size_t(filters[i].size())))
                BSON_APPEND_DOCUMENT(&list, std::to_string(i).c_str(), &f);
        }
        bson_append_array_end(d, &list);
    });
}

// {$set: {...sets}, $unset: {...unsets}} from raw values; empty raw values are skipped.
inline QByteArray setUnset(const std::vector<std::pair<QString, QByteArray>> &sets,
                           const QStringList &unsets)
{
    return build([&](bson_t *d) {
        bson_t set, unset;
        BSON_APPEND_DOCUMENT_BEGIN(d, "$set", &set);
        for (const auto &[key, raw] : sets) {
            const QByteArray k = key.toUtf8();
            bsonraw::append(&set, k.constData(), int(k.size()), raw);
        }
        bson_append_document_end(d, &set);
        if (!unsets.isEmpty()) {
            BSON_APPEND_DOCUMENT_BEGIN(d, "$unset", &unset);
            for (const QString &key : unsets) {
                const QByteArray k = key.toUtf8();
                bson_append_utf8(&unset, k.constData(), int(k.size()), "", 0);
            }
            bson_append_document_end(d, &unset);
        }
    });
}

// Overflow pages of one parent: {link: id}.
inline QByteArray pagesOf(const SplitConfig &c, const QByteArray &idValue)
{
    return build([&](bson_t *d) {
        const QByteArray link = c.linkField.toUtf8();
        bsonraw::append(d, link.constData(), int(link.size()), idValue);
    });
}

// Overflow pages of any of these parents: {link: {$in: ids}}.
inline QByteArray pagesOfAny(const SplitConfig &c, const std::vector<QByteArray> &idValues)
{
    return build([&](bson_t *d) { appendIn(d, c.linkField, idValues); });
}

// A document's _id (raw value), and as relaxed extended JSON for messages.
inline QByteArray idValueOf(const QByteArray &doc)
{
    return bsonraw::idOf(doc);
}

inline QString idText(const QByteArray &idValue)
{
    return DocumentId::toRelaxedJson(bsonraw::toDocumentId(idValue));
}

// find() options returning only _id.
inline QByteArray projectionId()
{
    return build([](bson_t *d) {
        bson_t p;
        BSON_APPEND_DOCUMENT_BEGIN(d, "projection", &p);
        BSON_APPEND_INT32(&p, "_id", 1);
        bson_append_document_end(d, &p);
    });
}

} // namespace oe::migration
