#include "ThresholdImpact.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace oe {

namespace {

double shareOf(std::uint64_t part, std::uint64_t whole)
{
    return whole ? double(part) / double(whole) : 0.0;
}

} // namespace

ThresholdImpact ThresholdImpact::forSize(const CollectionProfile &profile, std::uint64_t threshold)
{
    ThresholdImpact r;
    r.threshold = threshold;
    if (profile.largestDocuments.isCompleteAbove(threshold)) {
        r.documentsOver = profile.largestDocuments.above(threshold).size();
    } else {
        r.exact = false;
        for (const auto &b :
             profile.sizes.sketch().buckets(profile.sizes.min(), profile.sizes.max()))
            if (b.representative > threshold)
                r.documentsOver += b.count;
    }
    r.share = shareOf(r.documentsOver, profile.documents);
    return r;
}

ThresholdImpact ThresholdImpact::forArray(const CollectionProfile &profile,
                                          const FieldProfile &field, std::uint64_t keep)
{
    ThresholdImpact r;
    r.threshold = keep;
    const double elementBytes = field.meanElementBytes();
    std::unordered_set<std::uint64_t> split;
    if (field.longestPerDocument.isCompleteAbove(keep)) {
        for (const auto &cand : field.longestPerDocument.above(keep)) {
            ++r.documentsOver;
            const std::uint64_t moved = cand.value - keep;
            r.elementsMoved += moved;
            const auto bytes = std::uint64_t(std::llround(double(moved) * elementBytes));
            r.bytesMoved += bytes;
            r.largestPrimaryAfter =
                std::max(r.largestPrimaryAfter, cand.docSize > bytes ? cand.docSize - bytes : 0);
            split.insert(cand.docIndex);
        }
    } else {
        r.exact = false;
        for (const auto &b :
             field.lengths.sketch().buckets(field.lengths.min(), field.lengths.max()))
            if (b.representative > keep) {
                r.documentsOver += b.count;
                r.elementsMoved += (b.representative - keep) * b.count;
            }
        r.bytesMoved = std::uint64_t(std::llround(double(r.elementsMoved) * elementBytes));
        // Without the exact list the largest documents are assumed to be the ones split.
        for (const auto &cand : field.longestPerDocument.above(keep)) {
            const auto bytes =
                std::uint64_t(std::llround(double(cand.value - keep) * elementBytes));
            r.largestPrimaryAfter =
                std::max(r.largestPrimaryAfter, cand.docSize > bytes ? cand.docSize - bytes : 0);
            split.insert(cand.docIndex);
        }
    }
    // The largest document that is not split stays as it is.
    const auto largest = profile.largestDocuments.sorted();
    bool found = false;
    for (const auto &doc : largest) {
        if (!split.count(doc.docIndex)) {
            r.largestPrimaryAfter = std::max(r.largestPrimaryAfter, doc.value);
            found = true;
            break;
        }
    }
    if (!found && !largest.empty() && profile.documents > largest.size())
        r.largestPrimaryAfter = std::max(r.largestPrimaryAfter, largest.back().value);
    r.share = shareOf(r.documentsOver, profile.documents);
    return r;
}

} // namespace oe
