#pragma once

#include <cstdint>
#include <optional>

namespace oe {

class Distribution;
struct CollectionProfile;

// How far a random sample's document-size figures can be from the whole collection's, at
// QuantileInterval::kConfidence: the intervals of p50 and p99, how many documents may be larger
// than the largest one sampled, and the sample that would pin p99 to ±0.1 percentile points.
// `applies` is false for full scans and limits (exact, or not a random sample).
struct SamplePrecision
{
    struct Interval
    {
        std::optional<std::uint64_t> low, high; // nullopt: unbounded at this sample size
        double coverage = 0.0;
    };

    bool applies = false;
    double confidence = 0.0;
    Interval p50, p99;
    double shareAboveMax = 0.0;                     // of the population
    std::optional<std::uint64_t> documentsAboveMax; // when the population is known
    std::uint64_t sampleForP99 = 0;                 // for p99 within ±0.1 percentile points
    double targetPoints = kDefaultTargetPoints;     // the precision the user chose for p99
    std::uint64_t sampleForTarget = 0;              // for p99 within ±targetPoints

    static constexpr double kP99HalfWidth = 0.001;
    static constexpr double kDefaultTargetPoints = 0.1;

    // `targetPoints`: the p99 precision (± percentile points; the CLI takes 0.0001 to 0.99) to
    // suggest a sample size for.
    static SamplePrecision of(const CollectionProfile &profile,
                              double targetPoints = kDefaultTargetPoints);
    // The random sample that pins p99 to within ±points percentile points.
    static std::uint64_t sampleForP99Within(double points);
    static Interval interval(const Distribution &values, double q);
};

} // namespace oe
