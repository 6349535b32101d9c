#pragma once

#include "analysis/CollectionProfile.h"

#include <cstdint>

namespace oe {

// What a threshold would catch, for the live counters next to a chart: documents over it (and
// their share of those analysed), and for an array "keep N": the elements that would move. (The
// sizes after a split are SplitPlanner's: it reads the documents.) Exact where the scan retained
// every document over the threshold; otherwise estimated from the distribution's sketch (`exact`
// false).
struct ThresholdImpact
{
    std::uint64_t threshold = 0;
    std::uint64_t documentsOver = 0;
    double share = 0.0; // documentsOver / documents analysed
    std::uint64_t elementsMoved = 0;
    std::uint64_t bytesMoved = 0; // estimated from the mean element size
    bool exact = true;

    // Documents whose BSON size is above `threshold` bytes.
    static ThresholdImpact forSize(const CollectionProfile &profile, std::uint64_t threshold);
    // Documents whose array at `field` has more than `keep` elements, split to keep `keep`.
    static ThresholdImpact forArray(const CollectionProfile &profile, const FieldProfile &field,
                                    std::uint64_t keep);
};

} // namespace oe
