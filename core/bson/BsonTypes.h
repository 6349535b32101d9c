#pragma once

#include <QStringList>

#include <cstdint>
#include <string_view>

namespace oe {

// BSON type codes as a bit set, named with MongoDB's $type aliases ("string", "array", ...).
class BsonTypes
{
public:
    static constexpr std::uint32_t bit(int bsonType)
    {
        if (bsonType >= 0x01 && bsonType <= 0x13)
            return 1u << bsonType;
        if (bsonType == 0x7F)
            return 1u << 20;
        if (bsonType == 0xFF)
            return 1u << 21;
        return 1u << 0;
    }
    static QStringList names(std::uint32_t mask);
    // The bit of a $type alias as the server's $type operator returns it ("string", "int"); 0
    // for a name that is not one ("missing" included).
    static std::uint32_t bitOfAlias(std::string_view alias);
    static QString name(int bitIndex);
    static constexpr std::uint32_t kArrayBit = 1u << 4;
    static constexpr std::uint32_t kDocumentBit = 1u << 3;
};

} // namespace oe
