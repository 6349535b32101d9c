#include "stats/QuantileSketch.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace oe {

namespace {
const double kLogGamma = std::log(QuantileSketch::kGamma);
}

std::uint32_t QuantileSketch::keyFor(std::uint64_t value)
{
    if (value < kExactLimit)
        return static_cast<std::uint32_t>(value);
    auto key = static_cast<std::uint32_t>(
        kExactLimit + std::floor(std::log(double(value) / double(kExactLimit)) / kLogGamma));
    // Guard against floating point rounding at bucket edges.
    while (key > kExactLimit && lowerBoundOfKey(key) > value)
        --key;
    // (The last bucket's upper bound saturates at 2^64 - 1, so stop there.)
    while (lowerBoundOfKey(key + 1) <= value &&
           lowerBoundOfKey(key + 1) != std::numeric_limits<std::uint64_t>::max())
        ++key;
    return key;
}

std::uint64_t QuantileSketch::lowerBoundOfKey(std::uint32_t key)
{
    if (key < kExactLimit)
        return key;
    const double lower =
        std::ceil(double(kExactLimit) * std::pow(kGamma, double(key - kExactLimit)));
    // Saturate: converting a double >= 2^64 to uint64 is undefined behaviour.
    if (lower >= 18446744073709551616.0)
        return std::numeric_limits<std::uint64_t>::max();
    return static_cast<std::uint64_t>(lower);
}

std::uint64_t QuantileSketch::representativeOfKey(std::uint32_t key)
{
    if (key < kExactLimit)
        return key;
    const double lower = double(lowerBoundOfKey(key));
    const double upper = double(lowerBoundOfKey(key + 1));
    // std::round, not std::llround: representatives above 2^63 do not fit a long long.
    return static_cast<std::uint64_t>(std::round((lower + upper - 1.0) / 2.0));
}

void QuantileSketch::add(std::uint64_t value, std::uint64_t times)
{
    const std::uint32_t key = keyFor(value);
    if (key >= m_counts.size())
        m_counts.resize(key + 1, 0);
    m_counts[key] += times;
    m_count += times;
}

void QuantileSketch::merge(const QuantileSketch &other)
{
    if (other.m_counts.size() > m_counts.size())
        m_counts.resize(other.m_counts.size(), 0);
    for (std::size_t i = 0; i < other.m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
    m_count += other.m_count;
}

std::uint64_t QuantileSketch::nearestRank(double q, std::uint64_t n)
{
    q = std::clamp(q, 0.0, 1.0);
    // q * n carries rounding error (0.07 * 100 == 7.000000000000001, 99.9 / 100 * 1000 ==
    // 999.0000000000001): a product within that error above an integer is that integer, so
    // an integral rank is not pushed up by one.
    const double exactRank = q * double(n);
    const double below = std::floor(exactRank);
    const auto rank = static_cast<std::uint64_t>(
        exactRank - below <= exactRank * 1e-12 ? below : std::ceil(exactRank));
    return std::clamp<std::uint64_t>(rank, 1, std::max<std::uint64_t>(n, 1));
}

std::uint64_t QuantileSketch::quantile(double q, std::uint64_t minimum, std::uint64_t maximum) const
{
    if (m_count == 0)
        return 0;
    return valueAtRank(nearestRank(q, m_count), minimum, maximum);
}

std::uint64_t QuantileSketch::valueAtRank(std::uint64_t rank, std::uint64_t minimum,
                                          std::uint64_t maximum) const
{
    if (m_count == 0)
        return 0;
    std::uint64_t seen = 0;
    for (std::size_t key = 0; key < m_counts.size(); ++key) {
        seen += m_counts[key];
        if (seen >= rank)
            return std::clamp(representativeOfKey(std::uint32_t(key)), minimum, maximum);
    }
    return maximum;
}

std::vector<QuantileSketch::Bucket> QuantileSketch::buckets(std::uint64_t minimum,
                                                            std::uint64_t maximum) const
{
    std::vector<Bucket> result;
    for (std::size_t key = 0; key < m_counts.size(); ++key) {
        if (m_counts[key] == 0)
            continue;
        result.push_back(
            {std::clamp(representativeOfKey(std::uint32_t(key)), minimum, maximum), m_counts[key]});
    }
    return result;
}

} // namespace oe
