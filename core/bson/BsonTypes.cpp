#include "bson/BsonTypes.h"

namespace oe {

namespace {
// Index = BSON type code for 0x01..0x13; 20 = maxKey (0x7F), 21 = minKey (0xFF).
const char *const kNames[] = {"eoo",       "double",     "string",    "object",
                              "array",     "binData",    "undefined", "objectId",
                              "bool",      "date",       "null",      "regex",
                              "dbPointer", "javascript", "symbol",    "javascriptWithScope",
                              "int",       "timestamp",  "long",      "decimal",
                              "maxKey",    "minKey"};
constexpr int kNameCount = int(sizeof(kNames) / sizeof(kNames[0]));
} // namespace

QString BsonTypes::name(int bitIndex)
{
    if (bitIndex < 0 || bitIndex >= kNameCount)
        return QStringLiteral("unknown");
    return QString::fromLatin1(kNames[bitIndex]);
}

std::uint32_t BsonTypes::bitOfAlias(std::string_view alias)
{
    for (int i = 1; i < kNameCount; ++i) {
        if (alias == kNames[i])
            return 1u << i;
    }
    return 0;
}

QStringList BsonTypes::names(std::uint32_t mask)
{
    QStringList result;
    for (int i = 0; i < kNameCount; ++i) {
        if (mask & (1u << i))
            result << name(i);
    }
    return result;
}

} // namespace oe
