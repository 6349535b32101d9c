#pragma once

#include <cstdint>

namespace oe {

// One size's figures: milliseconds per append, mean and median, for the unbounded document
// and for the split layout (the pattern's write path: every round trip it takes).
struct WhatIfRow
{
    int elements = 0;
    std::uint64_t documentBytes = 0; // the unbounded document before the appends
    double unboundedMeanMs = 0;
    double unboundedMedianMs = 0;
    double splitMeanMs = 0;
    double splitMedianMs = 0;
    // The server refused update pipelines: the split figures are the four-round-trip legacy
    // write path's (OverflowAppender).
    bool legacyWritePath = false;
    double speedup() const { return splitMeanMs > 0 ? unboundedMeanMs / splitMeanMs : 0; }
};

} // namespace oe
