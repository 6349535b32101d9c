#pragma once

#include <QString>

#include <cstdint>
#include <string>

namespace oe {

// A document's _id kept compactly (BSON type byte + value bytes: 13 bytes for an ObjectId, so
// it fits std::string's small buffer) and rendered as relaxed extended JSON on demand.
class DocumentId
{
public:
    // type: the BSON type code; value: the element's value bytes (after its key). Strings
    // are stored as their characters only; toRelaxedJson restores them.
    static std::string raw(int type, const std::uint8_t *value, std::size_t length);
    // Relaxed extended JSON without insignificant white space: "user-42", 42, {"$oid":"…"}.
    static QString toRelaxedJson(const std::string &raw);
    // Relaxed extended JSON of a whole document, compact.
    static QString documentToRelaxedJson(const std::uint8_t *data, std::size_t length);
};

} // namespace oe
