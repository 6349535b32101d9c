#include "CandidateTail.h"

#include <algorithm>

namespace oe {

namespace {
// Heap order: "less" means "better", so the front of the heap is the worst candidate.
struct WorstFirst
{
    bool operator()(const TailCandidate &a, const TailCandidate &b) const
    {
        if (a.value != b.value)
            return a.value > b.value;
        return a.docIndex < b.docIndex;
    }
};
} // namespace

CandidateTail::CandidateTail(std::size_t capacity, std::uint64_t keepAbove)
    : m_capacity(capacity), m_keepAbove(keepAbove)
{
}

bool CandidateTail::better(const TailCandidate &a, const TailCandidate &b)
{
    return WorstFirst{}(a, b);
}

bool CandidateTail::wants(std::uint64_t value, std::uint64_t docIndex) const
{
    if (value == 0)
        return false;
    if (value > m_keepAbove)
        return true;
    if (m_heap.size() < m_capacity)
        return true;
    if (m_capacity == 0)
        return false;
    const TailCandidate &worst = m_heap.front();
    return value > worst.value || (value == worst.value && docIndex < worst.docIndex);
}

void CandidateTail::drop(std::uint64_t value)
{
    m_dropped = true;
    m_droppedMax = std::max(m_droppedMax, value);
}

void CandidateTail::offer(TailCandidate &&candidate)
{
    if (candidate.value == 0)
        return;
    if (candidate.value > m_keepAbove) {
        m_kept.push_back(std::move(candidate));
        return;
    }
    if (m_heap.size() < m_capacity) {
        m_heap.push_back(std::move(candidate));
        std::push_heap(m_heap.begin(), m_heap.end(), WorstFirst{});
        return;
    }
    if (m_capacity == 0 || !better(candidate, m_heap.front())) {
        drop(candidate.value);
        return;
    }
    std::pop_heap(m_heap.begin(), m_heap.end(), WorstFirst{});
    drop(m_heap.back().value);
    m_heap.back() = std::move(candidate);
    std::push_heap(m_heap.begin(), m_heap.end(), WorstFirst{});
}

void CandidateTail::merge(CandidateTail &&other)
{
    if (other.m_dropped)
        drop(other.m_droppedMax);
    for (auto &c : other.m_kept)
        m_kept.push_back(std::move(c));
    for (auto &c : other.m_heap)
        offer(std::move(c));
    other.m_kept.clear();
    other.m_heap.clear();
}

std::vector<TailCandidate> CandidateTail::sorted() const
{
    std::vector<TailCandidate> all = m_kept;
    all.insert(all.end(), m_heap.begin(), m_heap.end());
    std::sort(all.begin(), all.end(), WorstFirst{});
    return all;
}

std::vector<TailCandidate> CandidateTail::above(std::uint64_t threshold) const
{
    // Filter first: the tail may hold tens of thousands of candidates, the answer few.
    std::vector<TailCandidate> result;
    for (const auto *list : {&m_kept, &m_heap})
        for (const auto &c : *list)
            if (c.value > threshold)
                result.push_back(c);
    std::sort(result.begin(), result.end(), WorstFirst{});
    return result;
}

std::vector<TailCandidate> CandidateTail::largest(std::size_t count) const
{
    std::vector<const TailCandidate *> all;
    all.reserve(m_kept.size() + m_heap.size());
    for (const auto *list : {&m_kept, &m_heap})
        for (const auto &c : *list)
            all.push_back(&c);
    count = std::min(count, all.size());
    std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(count), all.end(),
                      [](const TailCandidate *a, const TailCandidate *b) { return WorstFirst{}(*a, *b); });
    std::vector<TailCandidate> result;
    result.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        result.push_back(*all[i]);
    return result;
}

bool CandidateTail::isCompleteAbove(std::uint64_t threshold) const
{
    return !m_dropped || m_droppedMax <= threshold;
}

} // namespace oe
