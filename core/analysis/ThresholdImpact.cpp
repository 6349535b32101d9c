#include "analysis/ThresholdImpact.h"

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
    if (field.longestPerDocument.isCompleteAbove(keep)) {
        for (const auto &cand : field.longestPerDocument.above(keep)) {
            ++r.documentsOver;
            const std::uint64_t moved = cand.value - keep;
            r.elementsMoved += moved;
            const auto bytes = std::uint64_t(std::llround(double(moved) * elementBytes));
            r.bytesMoved += bytes;
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
    }
    r.share = shareOf(r.documentsOver, profile.documents);
    return r;
}

} // namespace oe
