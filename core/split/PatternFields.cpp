#include "split/PatternFields.h"

#include "bson/BsonTypes.h"

namespace oe {

bool PatternFields::holdsPatternValues(Role role, std::uint32_t typeMask)
{
    constexpr std::uint32_t kBool = BsonTypes::bit(0x08);
    constexpr std::uint32_t kNumbers =
        BsonTypes::bit(0x01) | BsonTypes::bit(0x10) | BsonTypes::bit(0x12) | BsonTypes::bit(0x13);
    const std::uint32_t allowed = role == Role::Flag ? kBool : kNumbers;
    return typeMask != 0 && (typeMask & ~allowed) == 0;
}

} // namespace oe
