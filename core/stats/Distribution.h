#pragma once

#include "stats/LogHistogram.h"
#include "stats/QuantileSketch.h"

#include <cstdint>

namespace oe {

// One numeric distribution (document sizes, or lengths of the arrays at one field path):
// count, min, max and sum exact; quantiles from the sketch; exact log-spaced histogram.
class Distribution
{
public:
    void add(std::uint64_t value, std::uint64_t times = 1)
    {
        if (times == 0)
            return;
        if (m_count == 0 || value < m_min)
            m_min = value;
        if (value > m_max)
            m_max = value;
        m_count += times;
        m_sum += value * times;
        m_sketch.add(value, times);
        m_histogram.add(value, times);
    }
    void merge(const Distribution &other);

    std::uint64_t count() const { return m_count; }
    std::uint64_t min() const { return m_min; }
    std::uint64_t max() const { return m_max; }
    std::uint64_t sum() const { return m_sum; }
    double mean() const { return m_count ? double(m_sum) / double(m_count) : 0.0; }
    // Nearest-rank quantile, q in [0,1] (see QuantileSketch for the error bound).
    std::uint64_t quantile(double q) const { return m_sketch.quantile(q, m_min, m_max); }
    std::uint64_t valueAtRank(std::uint64_t rank) const
    {
        return m_sketch.valueAtRank(rank, m_min, m_max);
    }

    const QuantileSketch &sketch() const { return m_sketch; }
    const LogHistogram &histogram() const { return m_histogram; }

private:
    friend class ProfileCodec;
    std::uint64_t m_count = 0;
    std::uint64_t m_min = 0;
    std::uint64_t m_max = 0;
    std::uint64_t m_sum = 0;
    QuantileSketch m_sketch;
    LogHistogram m_histogram;
};

} // namespace oe
