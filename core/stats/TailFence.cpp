#include "stats/TailFence.h"

#include <algorithm>

namespace oe {

TailFence::TailFence(std::uint64_t capacity, std::uint64_t keepAbove)
    : m_capacity(capacity), m_keepAbove(keepAbove)
{
}

void TailFence::count(std::uint64_t value, std::uint64_t times)
{
    if (value == 0 || times == 0)
        return;
    if (value > m_keepAbove)
        m_kept += times;
    else
        m_counts[value] += times;
}

TailFence::Cut TailFence::cut() const
{
    Cut c;
    if (m_counts.empty()) {
        c.atLeast = m_keepAbove + 1;
        return c;
    }
    std::uint64_t seen = 0;
    bool full = false;
    for (auto v = m_counts.rbegin(); v != m_counts.rend(); ++v) {
        if (full) {
            c.passOver = v->first; // the first value past the last place
            break;
        }
        c.atLeast = v->first;
        c.tied = std::min(v->second, m_capacity - seen);
        seen += v->second;
        if (seen > m_capacity) {
            c.passOver = v->first; // the last place's value, shared past it
            break;
        }
        full = seen == m_capacity;
    }
    return c;
}

std::uint64_t TailFence::atLeast() const
{
    return cut().atLeast;
}

std::uint64_t TailFence::tied() const
{
    return cut().tied;
}

std::optional<std::uint64_t> TailFence::passOver() const
{
    return cut().passOver;
}

bool TailFence::tiesCut() const
{
    const Cut c = cut();
    return c.passOver && *c.passOver == c.atLeast;
}

std::uint64_t TailFence::atCount() const
{
    const auto at = m_counts.find(atLeast());
    return at == m_counts.end() ? 0 : at->second;
}

std::uint64_t TailFence::above() const
{
    const std::uint64_t at = atLeast();
    std::uint64_t n = m_kept;
    for (auto v = m_counts.upper_bound(at); v != m_counts.end(); ++v)
        n += v->second;
    return n;
}

} // namespace oe
