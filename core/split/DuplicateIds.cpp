#include "split/internal/DuplicateIds.h"

#include <QByteArrayView>
#include <QHash>

#include <algorithm>
#include <tuple>

namespace oe {

void DuplicateIds::add(const std::string &rawId, std::uint64_t docIndex)
{
    const QByteArrayView bytes(rawId.data(), qsizetype(rawId.size()));
    // Two independently seeded hashes: a false repeat among 10^9 documents is below 10^-20.
    m_entries.push_back({std::uint64_t(qHash(bytes, 0x9e3779b97f4a7c15ull)),
                         std::uint64_t(qHash(bytes, 0xc2b2ae3d27d4eb4full)), docIndex});
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> DuplicateIds::firstRepeat()
{
    std::sort(m_entries.begin(), m_entries.end(), [](const Entry &a, const Entry &b) {
        return std::tie(a.low, a.high, a.index) < std::tie(b.low, b.high, b.index);
    });
    std::optional<std::pair<std::uint64_t, std::uint64_t>> first;
    for (std::size_t i = 1; i < m_entries.size(); ++i) {
        const Entry &a = m_entries[i - 1], &b = m_entries[i];
        if (a.low == b.low && a.high == b.high && (!first || b.index < first->second))
            first = std::pair(a.index, b.index);
    }
    return first;
}

} // namespace oe
