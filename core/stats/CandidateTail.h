#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace oe {

// A document remembered because one of its values (its size, or an array length) is large.
struct TailCandidate
{
    std::uint64_t value = 0;
    std::uint64_t docIndex = 0; // position in the scan, 0-based
    std::uint64_t docSize = 0;  // BSON size in bytes
    std::string rawId;          // the _id as BSON type byte + value bytes (see DocumentId)
    std::string path;           // the field path the value belongs to, where relevant
};

// Keeps, in bounded memory, the documents with the largest values: the `capacity` largest,
// plus every document above `keepAbove` (a threshold known before the scan, so those lists are
// exact). Ties are broken by scan position so results do not depend on thread scheduling.
// It also knows how far down it is complete, so a threshold chosen after the scan can be
// answered exactly or flagged as truncated.
class CandidateTail
{
public:
    static constexpr std::uint64_t kNoThreshold = std::numeric_limits<std::uint64_t>::max();

    explicit CandidateTail(std::size_t capacity = 4096, std::uint64_t keepAbove = kNoThreshold);

    // Cheap pre-check, so callers build the candidate (copy its _id) only when it may be kept:
    // false means offer() would not retain it.
    bool wants(std::uint64_t value, std::uint64_t docIndex) const;
    void offer(TailCandidate &&candidate);
    void merge(CandidateTail &&other);
    // Records a document with `value` as passed over without offering it: one counted in the
    // cluster that a tail of its tallies knows it would not keep (ServerTally).
    void passOver(std::uint64_t value)
    {
        if (value > 0 && value <= m_keepAbove)
            drop(value);
    }
    // Gives every candidate a new document index; `renumber` must keep their order (a range
    // scan numbers documents per range while it reads and globally once every range is done).
    template <typename Renumber> void renumber(Renumber &&renumberIndex)
    {
        for (auto &c : m_kept)
            c.docIndex = renumberIndex(c.docIndex);
        for (auto &c : m_items)
            c.docIndex = renumberIndex(c.docIndex);
        if (m_hasCutoff)
            m_cutoffDoc = renumberIndex(m_cutoffDoc);
    }

    // Every retained candidate, largest value first (ties: earlier document first).
    std::vector<TailCandidate> sorted() const;
    // The `count` largest retained candidates, largest first.
    std::vector<TailCandidate> largest(std::size_t count) const;
    // Retained candidates with value > threshold, largest first.
    std::vector<TailCandidate> above(std::uint64_t threshold) const;
    // True when every document whose value exceeds `threshold` is retained.
    bool isCompleteAbove(std::uint64_t threshold) const;

    std::size_t size() const
    {
        compact();
        return m_kept.size() + m_items.size();
    }
    std::size_t capacity() const { return m_capacity; }
    std::uint64_t keepAbove() const { return m_keepAbove; }

private:
    friend class ProfileCodec;
    // Candidates are appended to a buffer while they beat the cut-off (the worst retained at
    // the last compaction); when the buffer outgrows the capacity by a quarter, nth_element
    // keeps the best `capacity`. Sequential, cache-friendly, amortised O(1) per offer, and
    // the retained set is exactly the top `capacity`. Queries compact first.
    void drop(std::uint64_t value) const;
    void compact() const;
    template <typename Visit> void forEachRetained(Visit &&visit) const;

    std::size_t m_capacity;
    std::uint64_t m_keepAbove;
    std::vector<TailCandidate> m_kept;          // above keepAbove: never evicted
    mutable std::vector<TailCandidate> m_items; // the bounded part, unordered
    mutable bool m_hasCutoff = false;
    mutable std::uint64_t m_cutoffValue = 0;
    mutable std::uint64_t m_cutoffDoc = 0;
    mutable bool m_dropped = false;
    mutable std::uint64_t m_droppedMax = 0;
};
} // namespace oe
