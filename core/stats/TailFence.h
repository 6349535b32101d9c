#pragma once

#include <cstdint>
#include <map>
#include <optional>

namespace oe {

// What a CandidateTail would keep of documents counted by value (tallies), not offered one by
// one: its fence, the value of its last place; how many documents at that value it keeps (the
// first by position: the server sends only those); and the first value it cannot keep, which
// the tail is told it passed over (CandidateTail::passOver), so it claims completeness no
// further down than a tail offered every document. Offering every document above the fence,
// the first `tied` at it and every one above keepAbove, then passing over passOver(), leaves a
// tail equal to one offered every document (tst_candidatetail).
class TailFence
{
public:
    TailFence(std::uint64_t capacity, std::uint64_t keepAbove);

    void count(std::uint64_t value, std::uint64_t times);
    std::uint64_t capacity() const { return m_capacity; }
    // Documents above keepAbove: each is kept.
    std::uint64_t kept() const { return m_kept; }
    // Whether any document has a value a tail would hold (above 0).
    bool isEmpty() const { return m_counts.empty() && m_kept == 0; }
    // The least value a kept document has (above keepAbove only, when no other counts).
    std::uint64_t atLeast() const;
    // How many documents of value atLeast() the tail keeps (the first by position).
    std::uint64_t tied() const;
    std::optional<std::uint64_t> passOver() const;
    // More documents share atLeast() than the tail keeps (tied() of them).
    bool tiesCut() const;
    // The documents of value atLeast().
    std::uint64_t atCount() const;
    // The documents above atLeast() (the kept ones above keepAbove included).
    std::uint64_t above() const;

private:
    struct Cut
    {
        std::uint64_t atLeast = 1;
        std::uint64_t tied = 0;
        std::optional<std::uint64_t> passOver;
    };
    Cut cut() const;

    std::uint64_t m_capacity;
    std::uint64_t m_keepAbove;
    std::map<std::uint64_t, std::uint64_t> m_counts; // value -> documents, 0 < value <= keepAbove
    std::uint64_t m_kept = 0;
};

} // namespace oe
