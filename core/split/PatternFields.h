#pragma once

#include <cstdint>

namespace oe {

// The fields the outlier pattern writes on a primary document, and whether values already there
// are the pattern's own: left by the generated write path (which flags and counts a document as
// it overflows, before any split) or by an earlier split. Those the split may set again; any
// other value at such a name is the application's, and the split would overwrite it.
class PatternFields
{
public:
    enum class Role
    {
        Flag,  // booleans
        Count, // numbers: the total length
        Pages  // numbers: the page count
    };
    // `typeMask`: the BsonTypes bits of the values found at the field.
    static bool holdsPatternValues(Role role, std::uint32_t typeMask);
};

} // namespace oe
