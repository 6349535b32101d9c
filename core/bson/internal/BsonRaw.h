#pragma once

// Internal to core (includes the driver's headers): raw BSON values, i.e. a type byte followed
// by the value's bytes exactly as they appear in a document.

#include "bson/DocumentId.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonIter.h"

#include <QByteArray>
#include <QString>

#include <bson/bson.h>

#include <cstring>
#include <string>
#include <vector>

namespace oe::bsonraw {

inline QByteArray valueOf(const bson_iter_t *it)
{
    QByteArray raw(1, char(bson_iter_type(it)));
    raw.append(reinterpret_cast<const char *>(bsoniter::container(it) + bsoniter::valueOffset(it)),
               qsizetype(bsoniter::valueLength(it)));
    return raw;
}

// Appends a raw value under `key` (validated by libbson on the way).
inline bool append(bson_t *out, const char *key, int keyLength, const QByteArray &raw)
{
    if (raw.isEmpty())
        return true;
    const std::size_t k = keyLength < 0 ? std::strlen(key) : std::size_t(keyLength);
    const auto total = std::uint32_t(4 + 1 + k + 1 + std::size_t(raw.size() - 1) + 1);
    std::string doc(total, '\0');
    const std::uint32_t le = BSON_UINT32_TO_LE(total);
    std::memcpy(doc.data(), &le, 4);
    doc[4] = raw[0];
    std::memcpy(doc.data() + 5, key, k);
    std::memcpy(doc.data() + 5 + k + 1, raw.constData() + 1, std::size_t(raw.size() - 1));
    bson_t single;
    bson_iter_t it;
    if (!bson_init_static(&single, reinterpret_cast<const std::uint8_t *>(doc.data()),
                          doc.size()) ||
        !bson_iter_init(&it, &single) || !bson_iter_next(&it))
        return false;
    return bson_append_iter(out, key, int(k), &it);
}

// DocumentId's compact encoding (strings as characters only) to a raw value, and back.
inline QByteArray fromDocumentId(const std::string &rawId)
{
    if (rawId.empty())
        return {};
    if (std::uint8_t(rawId[0]) != BSON_TYPE_UTF8)
        return QByteArray(rawId.data(), qsizetype(rawId.size()));
    const std::string chars = rawId.substr(1);
    const std::uint32_t le = BSON_UINT32_TO_LE(std::uint32_t(chars.size() + 1));
    QByteArray raw(1, char(BSON_TYPE_UTF8));
    raw.append(reinterpret_cast<const char *>(&le), 4);
    raw.append(chars.data(), qsizetype(chars.size()));
    raw.append('\0');
    return raw;
}

inline std::string toDocumentId(const QByteArray &raw)
{
    if (raw.isEmpty())
        return {};
    const auto type = int(std::uint8_t(raw[0]));
    return DocumentId::raw(type, reinterpret_cast<const std::uint8_t *>(raw.constData() + 1),
                           std::size_t(raw.size() - 1));
}

// A read-only bson_t over `bytes` (which must outlive it); false when they are no document.
inline bool view(const QByteArray &bytes, bson_t *doc)
{
    return bson_init_static(doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                            std::size_t(bytes.size()));
}

// The bytes of the sub-document or array `it` is on (empty for any other type).
inline QByteArray subdocumentOf(const bson_iter_t *it)
{
    std::uint32_t length = 0;
    const std::uint8_t *data = nullptr;
    if (BSON_ITER_HOLDS_ARRAY(it))
        bson_iter_array(it, &length, &data);
    else if (BSON_ITER_HOLDS_DOCUMENT(it))
        bson_iter_document(it, &length, &data);
    return data ? QByteArray(reinterpret_cast<const char *>(data), qsizetype(length))
                : QByteArray();
}

// The string under `key` of `doc`; empty when there is none or it is not a string.
inline QString textOf(const bson_t *doc, const char *key)
{
    bson_iter_t it;
    return bson_iter_init_find(&it, doc, key) && BSON_ITER_HOLDS_UTF8(&it)
               ? QString::fromUtf8(bson_iter_utf8(&it, nullptr))
               : QString();
}

// Appends `value` as a UTF-8 string (evaluated once).
inline void appendText(bson_t *doc, const char *key, const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    bson_append_utf8(doc, key, -1, utf8.constData(), int(utf8.size()));
}

inline QByteArray bytesOf(const bson_t *doc)
{
    return QByteArray(reinterpret_cast<const char *>(bson_get_data(doc)), qsizetype(doc->len));
}

// A whole document's _id as a raw value; empty when the bytes are no document or it has none.
inline QByteArray idOf(const QByteArray &document)
{
    bson_t doc;
    bson_iter_t it;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(document.constData()),
                          std::size_t(document.size())) ||
        !bson_iter_init_find(&it, &doc, "_id"))
        return {};
    return valueOf(&it);
}

// The filter {_id: {$in: [ids…]}} (raw values), as BSON bytes.
inline QByteArray idsIn(const std::vector<QByteArray> &ids)
{
    BsonDocument filter;
    bson_t condition, list;
    bson_append_document_begin(filter.get(), "_id", -1, &condition);
    bson_append_array_begin(&condition, "$in", -1, &list);
    for (std::size_t i = 0; i < ids.size(); ++i)
        append(&list, std::to_string(i).c_str(), -1, ids[i]);
    bson_append_array_end(&condition, &list);
    bson_append_document_end(filter.get(), &condition);
    return filter.bytes();
}

} // namespace oe::bsonraw
