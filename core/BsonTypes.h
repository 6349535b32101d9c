#pragma once

#include <QStringList>

#include <cstdint>

namespace oe {

// BSON type codes as a bit set, named with MongoDB's $type aliases ("string", "array", ...).
class BsonTypes
{
public:
    static std::uint32_t bit(int bsonType);
    static QStringList names(std::uint32_t mask);
    static QString name(int bitIndex);
    static constexpr std::uint32_t kArrayBit = 1u << 4;
    static constexpr std::uint32_t kDocumentBit = 1u << 3;
};

} // namespace oe
