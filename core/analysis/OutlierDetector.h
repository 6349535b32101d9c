#pragma once

#include "analysis/CollectionProfile.h"
#include "analysis/DetectionOptions.h"
#include "analysis/OutlierReport.h"

namespace oe {

// Applies DetectionOptions to a finished profile. Documents over half of MongoDB's 16 MiB
// limit are always listed (reason size_over_half_limit), and over the limit (size_over_limit).
class OutlierDetector
{
public:
    static OutlierReport detect(const CollectionProfile &profile, const DetectionOptions &options);
    // The ProfileBuilder limits that make the scan keep what `options` will ask for.
    static void prepareScan(const DetectionOptions &options, std::uint64_t &keepDocumentsLargerThan,
                            std::uint64_t &keepArraysLongerThan);
};

} // namespace oe
