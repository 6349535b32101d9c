#pragma once

#include <string_view>

namespace oe {

// What a field name looks like: a name a schema would choose, or a value used as a key (a
// number, a date, an ObjectId, a UUID), the mark of an object whose keys are data.
class KeyPattern
{
public:
    enum class Kind
    {
        Name,
        Number,   // 42, -7, 3.5
        Date,     // 2024-01-31, 20240131, 2024-01, 2024-01-31T10:00:00Z
        ObjectId, // 24 hexadecimal digits
        Uuid      // 8-4-4-4-12 hexadecimal digits, or 32 of them
    };
    static Kind classify(std::string_view key);
    static bool looksLikeData(std::string_view key) { return classify(key) != Kind::Name; }
};

} // namespace oe
