#include "QuantileSketch.h"

#include <algorithm>
#include <cmath>

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
    while (lowerBoundOfKey(key + 1) <= value)
        ++key;
    return key;
}

std::uint64_t QuantileSketch::lowerBoundOfKey(std::uint32_t key)
{
    if (key < kExactLimit)
        return key;
    return static_cast<std::uint64_t>(
        std::ceil(double(kExactLimit) * std::pow(kGamma, double(key - kExactLimit))));
}

std::uint64_t QuantileSketch::representativeOfKey(std::uint32_t key)
{
    if (key < kExactLimit)
        return key;
    const double lower = double(lowerBoundOfKey(key));
    const double upper = double(lowerBoundOfKey(key + 1));
    return static_cast<std::uint64_t>(std::llround((lower + upper - 1.0) / 2.0));
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

std::uint64_t QuantileSketch::quantile(double q, std::uint64_t minimum, std::uint64_t maximum) const
{
    if (m_count == 0)
        return 0;
    q = std::clamp(q, 0.0, 1.0);
    std::uint64_t rank = static_cast<std::uint64_t>(std::ceil(q * double(m_count)));
    rank = std::clamp<std::uint64_t>(rank, 1, m_count);
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
