#include "stats/CandidateTail.h"

#include <algorithm>

namespace oe {

namespace {
// "Better" = larger value, or the same value from an earlier document. As a heap order
// ("less" = better) it puts the worst candidate at the front.
template <typename A, typename B> bool better(const A &a, const B &b)
{
    if (a.value != b.value)
        return a.value > b.value;
    return a.docIndex < b.docIndex;
}
struct WorstFirst
{
    template <typename A, typename B> bool operator()(const A &a, const B &b) const
    {
        return better(a, b);
    }
};
} // namespace

CandidateTail::CandidateTail(std::size_t capacity, std::uint64_t keepAbove)
    : m_capacity(capacity), m_keepAbove(keepAbove)
{
}

bool CandidateTail::wants(std::uint64_t value, std::uint64_t docIndex) const
{
    if (value == 0)
        return false;
    if (value > m_keepAbove)
        return true;
    if (m_capacity == 0)
        return false;
    if (!m_hasCutoff)
        return true;
    return value > m_cutoffValue || (value == m_cutoffValue && docIndex < m_cutoffDoc);
}

void CandidateTail::drop(std::uint64_t value) const
{
    m_dropped = true;
    m_droppedMax = std::max(m_droppedMax, value);
}

void CandidateTail::compact() const
{
    if (m_capacity == 0 || m_items.size() < m_capacity)
        return;
    const auto keep = m_items.begin() + std::ptrdiff_t(m_capacity);
    if (m_items.size() > m_capacity) {
        // Partition: the best `capacity` first, the one at [capacity - 1] the worst of them.
        std::nth_element(m_items.begin(), keep - 1, m_items.end(), WorstFirst{});
        for (auto it = keep; it != m_items.end(); ++it)
            drop(it->value);
        m_items.erase(keep, m_items.end());
    }
    const TailCandidate &worst = *std::max_element(m_items.begin(), m_items.end(), WorstFirst{});
    m_hasCutoff = true;
    m_cutoffValue = worst.value;
    m_cutoffDoc = worst.docIndex;
}

void CandidateTail::offer(TailCandidate &&candidate)
{
    if (candidate.value == 0)
        return;
    if (candidate.value > m_keepAbove) {
        m_kept.push_back(std::move(candidate));
        return;
    }
    if (!wants(candidate.value, candidate.docIndex)) {
        drop(candidate.value);
        return;
    }
    m_items.push_back(std::move(candidate));
    if (m_items.size() >= m_capacity + std::max<std::size_t>(m_capacity / 4, 16))
        compact();
}

void CandidateTail::merge(CandidateTail &&other)
{
    other.compact();
    if (other.m_dropped)
        drop(other.m_droppedMax);
    for (auto &c : other.m_kept)
        m_kept.push_back(std::move(c));
    for (auto &c : other.m_items)
        offer(std::move(c));
    other.m_kept.clear();
    other.m_items.clear();
}

template <typename Visit> void CandidateTail::forEachRetained(Visit &&visit) const
{
    compact();
    for (const auto &c : m_kept)
        visit(c);
    for (const auto &c : m_items)
        visit(c);
}

std::vector<TailCandidate> CandidateTail::sorted() const
{
    return largest(size());
}

std::vector<TailCandidate> CandidateTail::above(std::uint64_t threshold) const
{
    // Filter first: the tail may hold tens of thousands of candidates, the answer few.
    std::vector<const TailCandidate *> hits;
    forEachRetained([&](const TailCandidate &c) {
        if (c.value > threshold)
            hits.push_back(&c);
    });
    std::sort(hits.begin(), hits.end(),
              [](const TailCandidate *a, const TailCandidate *b) { return better(*a, *b); });
    std::vector<TailCandidate> result;
    result.reserve(hits.size());
    for (const TailCandidate *c : hits)
        result.push_back(*c);
    return result;
}

std::vector<TailCandidate> CandidateTail::largest(std::size_t count) const
{
    std::vector<const TailCandidate *> all;
    all.reserve(size());
    forEachRetained([&](const TailCandidate &c) { all.push_back(&c); });
    count = std::min(count, all.size());
    std::partial_sort(
        all.begin(), all.begin() + std::ptrdiff_t(count), all.end(),
        [](const TailCandidate *a, const TailCandidate *b) { return better(*a, *b); });
    std::vector<TailCandidate> result;
    result.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        result.push_back(*all[i]);
    return result;
}

bool CandidateTail::isCompleteAbove(std::uint64_t threshold) const
{
    compact();
    return !m_dropped || m_droppedMax <= threshold;
}

} // namespace oe
