#pragma once

#include <cstdint>
#include <optional>

namespace oe {

// How precise a uniform random sample's quantiles are. Distribution-free: the confidence
// interval of the population's q-quantile is a pair of the sample's order statistics, X(l) and
// X(u), whose ranks bracket q·n with probability >= the confidence under Binomial(n, q)
// (Hahn & Meeker, Statistical Intervals, §5.2). No assumption about the sizes' distribution.
class QuantileInterval
{
public:
    static constexpr double kConfidence = 0.95;

    struct Ranks
    {
        // 1-based ranks in the sorted sample; nullopt when the sample is too small for that
        // side to be bounded at this confidence (e.g. the upper side of p99 for n < 368).
        std::optional<std::uint64_t> lower, upper;
        double coverage = 0.0; // the interval's exact probability of holding the quantile
    };
    static Ranks ranks(double q, std::uint64_t n, double confidence = kConfidence);

    // The sample size whose interval for the q-quantile spans at most q ± halfWidth (in
    // quantile units: 0.001 is a tenth of a percentile point), by the normal approximation.
    static std::uint64_t sampleSizeFor(double q, double halfWidth, double confidence = kConfidence);

    // The largest share of the population that can lie above the sample's maximum at this
    // confidence: 1 - (1 - confidence)^(1/n), about 3/n at 95 %. The sample maximum is only a
    // lower bound of the population's; this says how many documents may exceed it.
    static double shareAboveSampleMax(std::uint64_t n, double confidence = kConfidence);

    // z such that a standard normal lies within ±z with probability `confidence`.
    static double twoSidedZ(double confidence);
};

} // namespace oe
