#pragma once

#include "analysis/TypeCounts.h"
#include "stats/CandidateTail.h"
#include "stats/Distribution.h"

#include <cstdint>
#include <string>
#include <vector>

namespace oe {

// A document that shows something at a field path: the first ones seen, kept for flags.
struct ShapeExample
{
    int slot = 0; // what it shows (FieldShape::presenceSlot, a type slot, elementSlot(type slot))
    std::uint64_t docIndex = 0;
    std::string rawId; // DocumentId's form; empty when the document has no _id before the field
};

// The shape figures of one field path, beside FieldProfile's sizes and lengths: values and
// array elements by BSON type, the first documents of each, and for object values their keys
// (how many per object, how many distinct, whether they look like data) and for strings and
// binaries over DocumentShape::bigScalarBytes the largest.
struct FieldShape
{
    static constexpr int kExamplesPerSlot = 3;
    static constexpr int presenceSlot = 64;
    static constexpr int elementSlot(int typeSlot) { return 32 + typeSlot; }
    static constexpr std::size_t kTailCapacity = 16;

    TypeCounts types;        // the values at this path
    TypeCounts elementTypes; // the elements of the arrays at this path
    // Up to kExamplesPerSlot per slot, the earliest documents, by slot then document.
    std::vector<ShapeExample> examples;

    Distribution keyCounts;         // keys per object value (objects inside arrays each count)
    std::uint64_t distinctKeys = 0; // keys told apart (at most ProfileBuilder's cap)
    std::uint64_t keysPastCap = 0;  // key occurrences past the cap: counted, not told apart
    std::uint32_t dataLikeKeys = 0; // of the distinct keys, those shaped like data
    bool keysAsData = false;        // its keys were folded into the one path "<key>"
    CandidateTail mostKeys{kTailCapacity}; // documents by their most keys in one object here

    std::uint64_t bigValues = 0;                // strings and binaries over the limit
    CandidateTail biggestValues{kTailCapacity}; // documents by their biggest such value here

    // Up to `count` example _ids (DocumentId's form) of one slot, first seen first.
    std::vector<ShapeExample> examplesOf(int slot, std::size_t count = kExamplesPerSlot) const;
    bool wantsExample(int slot) const;
    // Keeps `e` if its slot has room and not this document yet (in the examples' order), or in
    // the place of the slot's last when `e` comes before it (documents offered out of order).
    bool addExample(ShapeExample &&e);
    // The same on any list kept in that order (VersionTally::Path's, counted out of order).
    static bool addExampleTo(std::vector<ShapeExample> &examples, ShapeExample &&e);
    void absorb(FieldShape &&other);
};

} // namespace oe
