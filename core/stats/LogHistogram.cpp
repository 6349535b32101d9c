#include "stats/LogHistogram.h"

#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace oe {

namespace {
// edges[i] = lower bound of bin i. Bin 0 is [0,1); bin k+1 starts at ceil(2^(k/4)).
constexpr std::size_t kEdgeCount = 64 * LogHistogram::kBinsPerDoubling + 2;

const std::array<std::uint64_t, kEdgeCount> &edges()
{
    static const std::array<std::uint64_t, kEdgeCount> table = [] {
        std::array<std::uint64_t, kEdgeCount> t{};
        t[0] = 0;
        for (std::size_t i = 1; i < kEdgeCount; ++i) {
            const std::size_t k = i - 1;
            if (k % LogHistogram::kBinsPerDoubling == 0) {
                const std::size_t shift = k / LogHistogram::kBinsPerDoubling;
                t[i] = shift < 64 ? (std::uint64_t(1) << shift)
                                  : std::numeric_limits<std::uint64_t>::max();
            } else {
                const long double e =
                    std::ceil(std::pow(2.0L, (long double)k / LogHistogram::kBinsPerDoubling));
                t[i] = e >= 1.8e19L ? std::numeric_limits<std::uint64_t>::max()
                                    : static_cast<std::uint64_t>(e);
            }
        }
        return t;
    }();
    return table;
}
} // namespace

std::uint64_t LogHistogram::binLower(std::uint32_t index)
{
    return index < kEdgeCount ? edges()[index] : std::numeric_limits<std::uint64_t>::max();
}

std::uint32_t LogHistogram::binIndex(std::uint64_t value)
{
    if (value == 0)
        return 0;
    // The doubling [2^s, 2^(s+1)) starts at bin 1 + 4s; at most three steps find the quarter.
    const auto &e = edges();
    auto index = static_cast<std::uint32_t>(1 + (std::bit_width(value) - 1) * kBinsPerDoubling);
    while (index + 1 < kEdgeCount - 1 && e[index + 1] <= value)
        ++index;
    return index;
}

void LogHistogram::add(std::uint64_t value, std::uint64_t times)
{
    const std::uint32_t index = binIndex(value);
    if (index >= m_counts.size())
        m_counts.resize(index + 1, 0);
    m_counts[index] += times;
    m_total += times;
}

void LogHistogram::merge(const LogHistogram &other)
{
    if (other.m_counts.size() > m_counts.size())
        m_counts.resize(other.m_counts.size(), 0);
    for (std::size_t i = 0; i < other.m_counts.size(); ++i)
        m_counts[i] += other.m_counts[i];
    m_total += other.m_total;
}

std::vector<LogHistogram::Bin> LogHistogram::bins() const
{
    std::vector<Bin> result;
    std::size_t first = 0;
    while (first < m_counts.size() && m_counts[first] == 0)
        ++first;
    for (std::size_t i = first; i < m_counts.size(); ++i) {
        const std::uint64_t lower = binLower(std::uint32_t(i));
        const std::uint64_t upper = binUpper(std::uint32_t(i));
        if (lower >= upper)
            continue; // no integer falls in this bin
        result.push_back({lower, upper, m_counts[i]});
    }
    return result;
}

} // namespace oe
