#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace oe {

// Finds documents that share an _id, for sources that do not guarantee unique ones (a dump that
// was concatenated or made by hand: mongodump never writes one twice, but an offline split of
// such a dump could not be verified or rolled back). Keeps a 128-bit hash and the index of each
// document, 24 bytes a document, and looks for repeats once at the end.
class DuplicateIds
{
public:
    // `rawId` as DocumentId::raw gives it (type byte and value bytes).
    void add(const std::string &rawId, std::uint64_t docIndex);
    // Two documents with the same _id (the earliest repeat by the later one's index), if any.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> firstRepeat();

private:
    struct Entry
    {
        std::uint64_t low, high, index;
    };
    std::vector<Entry> m_entries;
};

} // namespace oe
