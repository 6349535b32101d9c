#pragma once

#include "analysis/FieldShape.h"
#include "stats/CandidateTail.h"
#include "stats/Distribution.h"

#include <cstdint>
#include <string>

namespace oe {

// Everything gathered about one field path (MongoDB dot notation; array elements are
// traversed implicitly, and an array directly inside an array adds the segment "$[]").
struct FieldProfile
{
    std::string path;                   // UTF-8
    std::uint32_t typeMask = 0;         // BsonTypes bits of the values at this path
    std::uint32_t elementTypeMask = 0;  // BsonTypes bits of array elements at this path
    std::uint64_t presentDocuments = 0; // documents where the path occurs at least once
    std::uint64_t values = 0;           // occurrences (one per array element for inner paths)
    std::uint64_t bytes = 0;            // BSON bytes of those values, keys and type bytes included
    std::uint64_t arrays = 0;           // array values seen at this path
    Distribution lengths;               // their lengths
    std::uint64_t elementCount = 0;     // total elements in those arrays
    std::uint64_t elementBytes = 0;     // total bytes of those elements
    bool insideArray = false;           // the path passes through an array (not splittable)
    // Measured on the server inside a summarised array: only the count and lengths of its
    // arrays are known (presence, values, bytes, types and element bytes are not shown).
    bool lengthsOnly = false;
    int depth = 0;                    // number of dots
    CandidateTail longestPerDocument; // documents by their longest array at this path
    FieldShape shape;                 // types, keys and big values (a walk's; not the server's)

    double meanElementBytes() const
    {
        return elementCount ? double(elementBytes) / double(elementCount) : 0.0;
    }
};

} // namespace oe
