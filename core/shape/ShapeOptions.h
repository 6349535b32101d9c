#pragma once

#include "analysis/DocumentShape.h"

#include <cstdint>

namespace oe {

// What counts as a schema outlier of shape (ShapeDetector). Shares are fractions (0.01 = 1 %).
struct ShapeOptions
{
    double rareShare = 0.01;  // a field in fewer of the documents is rare
    double mixedShare = 0.10; // a type with fewer of a path's values is a minority type
    // Strings and binaries larger than this are big scalars (known before the scan).
    std::uint64_t bigScalarBytes = DocumentShape::kDefaultBigScalarBytes;
    std::size_t examples = 3; // example _ids per flag

    bool operator==(const ShapeOptions &) const = default;
};

} // namespace oe
