#pragma once

#include "analysis/CollectionProfile.h"

#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace oe {

// A suggested "keep N elements in the primary" for one array path, and why.
struct SplitRecommendation
{
    std::string path;
    bool splittable =
        true; // false for arrays inside arrays (the split needs one array per document)
    std::uint64_t keep = 0;       // the recommendation: min(fenceKeep, targetKeep)
    std::uint64_t fenceKeep = 0;  // from the distribution: Tukey's fence on log scale
    std::uint64_t targetKeep = 0; // from the target primary size: target bytes / mean element bytes
    double meanElementBytes = 0.0;
    std::uint64_t documentsOver = 0; // documents whose array is longer than keep
    std::uint64_t elementsMoved = 0; // elements beyond keep, summed over those documents
    bool estimated = false;          // counts from the sketch rather than the exact candidates
    QString explanation;

    // The default target primary size, as in the seed texts: 1,000 activities of 200 B = 200 KB.
    static constexpr std::uint64_t kDefaultTargetBytes = 200 * 1024;

    static std::vector<SplitRecommendation>
    recommend(const CollectionProfile &profile,
              std::uint64_t targetPrimaryBytes = kDefaultTargetBytes, double fenceK = 1.5);
};

} // namespace oe
