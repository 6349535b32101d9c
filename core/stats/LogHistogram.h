#pragma once

#include <cstdint>
#include <vector>

namespace oe {

// Exact counts in log-spaced bins: [0,1) then four bins per doubling, with integer edges
// ceil(2^(k/4)). Bins whose integer range is empty are never filled and never reported.
class LogHistogram
{
public:
    struct Bin
    {
        std::uint64_t lower; // inclusive
        std::uint64_t upper; // exclusive
        std::uint64_t count;
    };

    static constexpr int kBinsPerDoubling = 4;

    void add(std::uint64_t value, std::uint64_t times = 1);
    void merge(const LogHistogram &other);
    std::uint64_t total() const { return m_total; }

    // Non-empty-range bins from the lowest to the highest filled one (zero counts in between
    // are kept, so charts show gaps).
    std::vector<Bin> bins() const;

    static std::uint32_t binIndex(std::uint64_t value);
    static std::uint64_t binLower(std::uint32_t index);
    static std::uint64_t binUpper(std::uint32_t index) { return binLower(index + 1); }

private:
    friend class ProfileCodec;
    std::vector<std::uint64_t> m_counts;
    std::uint64_t m_total = 0;
};

} // namespace oe
