#include "bson/DocumentId.h"

#include "bson/JsonIndenter.h"

#include <bson/bson.h>

#include <cstring>

namespace oe {

std::string DocumentId::raw(int type, const std::uint8_t *value, std::size_t length)
{
    // Strings are kept as their characters only (no length prefix or NUL), so ids such as
    // "user-00042" fit std::string's inline buffer: no allocation per remembered document.
    if (type == BSON_TYPE_UTF8 && length >= 5)
        return char(type) + std::string(reinterpret_cast<const char *>(value) + 4, length - 5);
    std::string raw;
    raw.reserve(1 + length);
    raw.push_back(char(type));
    raw.append(reinterpret_cast<const char *>(value), length);
    return raw;
}

QString DocumentId::documentToRelaxedJson(const std::uint8_t *data, std::size_t length)
{
    bson_t doc;
    if (!bson_init_static(&doc, data, length))
        return QString();
    std::size_t jsonLength = 0;
    char *json = bson_as_relaxed_extended_json(&doc, &jsonLength);
    if (!json)
        return QString();
    const std::string compact = JsonIndenter::compact(json, jsonLength);
    bson_free(json);
    return QString::fromStdString(compact);
}

QString DocumentId::toRelaxedJson(const std::string &raw)
{
    if (raw.empty())
        return QString();
    std::string value = raw.substr(1);
    if (raw[0] == char(BSON_TYPE_UTF8)) { // restore the BSON string: int32 length, bytes, NUL
        const std::uint32_t le = BSON_UINT32_TO_LE(std::uint32_t(value.size() + 1));
        value = std::string(reinterpret_cast<const char *>(&le), 4) + value + '\0';
    }
    // A one-field document {_id: value}: int32 length, type, "_id\0", value, terminating NUL.
    const std::uint32_t total = std::uint32_t(4 + 1 + 4 + value.size() + 1);
    std::string doc(total, '\0');
    const std::uint32_t le = BSON_UINT32_TO_LE(total);
    std::memcpy(doc.data(), &le, 4);
    doc[4] = raw[0];
    std::memcpy(doc.data() + 5, "_id", 4);
    std::memcpy(doc.data() + 9, value.data(), value.size());
    const QString json =
        documentToRelaxedJson(reinterpret_cast<const std::uint8_t *>(doc.data()), doc.size());
    // {"_id":VALUE} -> VALUE
    const QString prefix = QStringLiteral("{\"_id\":");
    if (json.startsWith(prefix) && json.endsWith(QLatin1Char('}')))
        return json.mid(prefix.size(), json.size() - prefix.size() - 1);
    return json;
}

} // namespace oe
