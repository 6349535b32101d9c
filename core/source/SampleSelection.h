#pragma once

#include "source/DocumentBatch.h"

#include <cstdint>
#include <vector>

namespace oe {

// A uniform random choice of k document positions out of n (Floyd's algorithm, so memory is
// O(k)), reproducible from its seed.
class SampleSelection
{
public:
    static SampleSelection choose(std::uint64_t population, std::uint64_t k, std::uint64_t seed);

    std::size_t size() const { return m_indices.size(); }
    const std::vector<std::uint64_t> &indices() const { return m_indices; }
    bool contains(std::uint64_t index) const;
    // Keeps only the selected documents of a batch.
    void filter(std::vector<DocumentBatch::Entry> &documents) const;

private:
    std::vector<std::uint64_t> m_indices; // sorted
};

} // namespace oe
