#include "analysis/SamplePrecision.h"

#include "analysis/CollectionProfile.h"
#include "stats/QuantileInterval.h"

#include <cmath>

namespace oe {

SamplePrecision::Interval SamplePrecision::interval(const Distribution &values, double q)
{
    const QuantileInterval::Ranks ranks = QuantileInterval::ranks(q, values.count());
    Interval result;
    result.coverage = ranks.coverage;
    if (ranks.lower)
        result.low = values.valueAtRank(*ranks.lower);
    if (ranks.upper)
        result.high = values.valueAtRank(*ranks.upper);
    return result;
}

std::uint64_t SamplePrecision::sampleForP99Within(double points)
{
    return QuantileInterval::sampleSizeFor(0.99, points / 100.0);
}

SamplePrecision SamplePrecision::of(const CollectionProfile &profile, double targetPoints)
{
    SamplePrecision result;
    result.targetPoints = targetPoints;
    if (!profile.randomSample || profile.sizes.count() == 0)
        return result;
    const std::uint64_t n = profile.sizes.count();
    result.applies = true;
    result.confidence = QuantileInterval::kConfidence;
    result.p50 = interval(profile.sizes, 0.50);
    result.p99 = interval(profile.sizes, 0.99);
    result.shareAboveMax = QuantileInterval::shareAboveSampleMax(n);
    if (profile.population)
        result.documentsAboveMax =
            std::uint64_t(std::ceil(result.shareAboveMax * double(*profile.population)));
    result.sampleForP99 = QuantileInterval::sampleSizeFor(0.99, kP99HalfWidth);
    result.sampleForTarget = sampleForP99Within(targetPoints);
    return result;
}

} // namespace oe
