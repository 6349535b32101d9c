#include "DocumentId.h"

#include <bson/bson.h>

#include <cstring>

namespace oe {

std::string DocumentId::raw(int type, const std::uint8_t *value, std::size_t length)
{
    std::string raw;
    raw.reserve(1 + length);
    raw.push_back(char(type));
    raw.append(reinterpret_cast<const char *>(value), length);
    return raw;
}

std::string DocumentId::compactJson(const char *json, std::size_t length)
{
    std::string out;
    out.reserve(length);
    bool inString = false;
    bool escaped = false;
    for (std::size_t i = 0; i < length; ++i) {
        const char c = json[i];
        if (inString) {
            out.push_back(c);
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
            out.push_back(c);
        } else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
            out.push_back(c);
        }
    }
    return out;
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
    const std::string compact = compactJson(json, jsonLength);
    bson_free(json);
    return QString::fromStdString(compact);
}

QString DocumentId::toRelaxedJson(const std::string &raw)
{
    if (raw.empty())
        return QString();
    // A one-field document {_id: value}: int32 length, type, "_id\0", value, terminating NUL.
    const std::uint32_t total = std::uint32_t(4 + 1 + 4 + (raw.size() - 1) + 1);
    std::string doc(total, '\0');
    const std::uint32_t le = BSON_UINT32_TO_LE(total);
    std::memcpy(doc.data(), &le, 4);
    doc[4] = raw[0];
    std::memcpy(doc.data() + 5, "_id", 4);
    std::memcpy(doc.data() + 9, raw.data() + 1, raw.size() - 1);
    const QString json =
        documentToRelaxedJson(reinterpret_cast<const std::uint8_t *>(doc.data()), doc.size());
    // {"_id":VALUE} -> VALUE
    const QString prefix = QStringLiteral("{\"_id\":");
    if (json.startsWith(prefix) && json.endsWith(QLatin1Char('}')))
        return json.mid(prefix.size(), json.size() - prefix.size() - 1);
    return json;
}

} // namespace oe
