#pragma once

#include "analysis/FieldShape.h"
#include "analysis/VersionTally.h"

#include <array>
#include <cstdint>

namespace oe {

// What one field-path node counted in the documents of one version group (VersionWatch's
// number for a field and value). Internal to the builder: it leaves as VersionTally::Path.
struct VersionNodeCounts
{
    int group = 0;
    std::uint64_t lastDocument = 0; // the builder's sequence number of the last document here
    VersionTally::Path counts;      // path set when taken
    std::array<std::uint8_t, FieldShape::presenceSlot + 1> examplesHeld{};
};

} // namespace oe
