#pragma once

#include "analysis/DocumentShape.h"

#include <cstdint>
#include <string>

namespace oe {

// What counts as a schema outlier of shape (ShapeDetector). Shares are fractions (0.01 = 1 %).
struct ShapeOptions
{
    double rareShare = 0.01;  // a field in fewer of the documents is rare
    double mixedShare = 0.10; // a type with fewer of a path's values is a minority type
    // Strings and binaries larger than this are big scalars (known before the scan).
    std::uint64_t bigScalarBytes = DocumentShape::kDefaultBigScalarBytes;
    std::size_t examples = 3; // example _ids per flag
    // A family of sparse fields (the attribute pattern's case): at least this many top-level
    // fields, each in under sparseShare of the documents.
    double sparseShare = 0.10;
    std::size_t sparseMinFields = 20;
    // The schema version field (SchemaVersions): found among the usual names, the one named,
    // or none (the shape of the whole collection only).
    enum class Versions
    {
        Detect,
        Named,
        Off
    };
    Versions versions = Versions::Detect;
    std::string versionField; // Named: a top-level field name, UTF-8

    bool operator==(const ShapeOptions &) const = default;
};

} // namespace oe
