// TallyRun's tails where every row of the tallies names each of its documents (a collection of
// few large documents: each row one of them): their figures are their rows', so every document
// is offered to every tail at its place among them all, and no candidates pass runs.
#include "scan/internal/TallyRun.h"

#include <algorithm>
#include <vector>

namespace oe {

bool TallyRun::offerKnown()
{
    if (!m_knowing || (m_known.empty() && m_whole.empty()))
        return false;
    // Every document of the scope once: its position is its record id's place among them.
    std::vector<std::int64_t> all;
    all.reserve(m_known.size() + m_whole.size());
    for (const Known &k : m_known)
        all.push_back(k.recordId);
    for (const auto &[r, raw] : m_whole)
        all.push_back(r);
    std::sort(all.begin(), all.end());
    if (all.size() != m_inScope || std::adjacent_find(all.begin(), all.end()) != all.end())
        return false;
    if (m_shape && !m_shape->takeKnown())
        return false;
    auto positionOf = [&all](std::int64_t r) {
        return std::uint64_t(std::lower_bound(all.begin(), all.end(), r) - all.begin());
    };
    for (const Known &k : m_known) {
        const std::uint64_t at = positionOf(k.recordId);
        m_placed[k.recordId] = at;
        for (std::size_t i = 0; i < m_tails.size() && i < k.values.size(); ++i)
            if (k.values[i] > 0)
                m_builder.offerTallied(m_tails[i].id, k.values[i], at, k.size, k.rawId,
                                       int(k.node));
    }
    for (const auto &[r, raw] : m_whole) {
        m_placed[r] = positionOf(r);
        m_wholeAt[raw] = m_placed[r];
    }
    m_namedByRows = true;
    m_known.clear();
    m_known.shrink_to_fit();
    return true;
}

} // namespace oe
