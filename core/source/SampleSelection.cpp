#include "source/SampleSelection.h"

#include "stats/SplitMix64.h"

#include <algorithm>
#include <unordered_set>

namespace oe {

SampleSelection SampleSelection::choose(std::uint64_t population, std::uint64_t k,
                                        std::uint64_t seed)
{
    SampleSelection s;
    if (k >= population) {
        s.m_indices.resize(population);
        for (std::uint64_t i = 0; i < population; ++i)
            s.m_indices[i] = i;
        return s;
    }
    SplitMix64 rng(seed);
    std::unordered_set<std::uint64_t> chosen;
    chosen.reserve(std::size_t(k) * 2);
    for (std::uint64_t j = population - k; j < population; ++j) {
        const std::uint64_t t = rng.below(j + 1);
        if (!chosen.insert(t).second)
            chosen.insert(j);
    }
    s.m_indices.assign(chosen.begin(), chosen.end());
    std::sort(s.m_indices.begin(), s.m_indices.end());
    return s;
}

bool SampleSelection::contains(std::uint64_t index) const
{
    return std::binary_search(m_indices.begin(), m_indices.end(), index);
}

void SampleSelection::filter(std::vector<DocumentBatch::Entry> &documents) const
{
    documents.erase(
        std::remove_if(documents.begin(), documents.end(),
                       [this](const DocumentBatch::Entry &e) { return !contains(e.index); }),
        documents.end());
}

} // namespace oe
