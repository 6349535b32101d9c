#pragma once

#include <cstdint>
#include <vector>

namespace oe {

// Bounded-memory quantile sketch for non-negative integers (document sizes, array lengths).
// Values below kExactLimit are counted exactly; larger ones fall into logarithmic buckets of
// ratio kGamma, so any quantile is within (kGamma-1)/(kGamma+1) ~ 0.5% of the true value.
// Memory is at most a few thousand counters whatever the number of values, and two sketches
// merge exactly (counts add), so workers can sketch independently.
class QuantileSketch
{
public:
    static constexpr std::uint64_t kExactLimit = 2048;
    static constexpr double kGamma = 1.01;

    void add(std::uint64_t value, std::uint64_t times = 1);
    void merge(const QuantileSketch &other);

    std::uint64_t count() const { return m_count; }
    bool isEmpty() const { return m_count == 0; }

    // Nearest-rank quantile, q in [0, 1]: the smallest value whose rank is >= ceil(q * n).
    // Exact below kExactLimit, within 0.5% relative error above; clamped to [minimum, maximum].
    std::uint64_t quantile(double q, std::uint64_t minimum, std::uint64_t maximum) const;
    // The value of the given 1-based rank (the rank-th smallest), same error and clamping.
    std::uint64_t valueAtRank(std::uint64_t rank, std::uint64_t minimum,
                              std::uint64_t maximum) const;

    // The 1-based nearest rank ceil(q * n), robust to floating-point error in q * n.
    static std::uint64_t nearestRank(double q, std::uint64_t n);

    // Bucket view for statistics that need the whole shape (e.g. the median absolute deviation).
    struct Bucket
    {
        std::uint64_t representative;
        std::uint64_t count;
    };
    std::vector<Bucket> buckets(std::uint64_t minimum, std::uint64_t maximum) const;

    static std::uint32_t keyFor(std::uint64_t value);
    static std::uint64_t lowerBoundOfKey(std::uint32_t key);
    static std::uint64_t representativeOfKey(std::uint32_t key);

private:
    friend class ProfileCodec;           // the resume state saves and restores it exactly
    std::vector<std::uint64_t> m_counts; // indexed by key, grown on demand
    std::uint64_t m_count = 0;
};

} // namespace oe
