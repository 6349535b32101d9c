#pragma once

#include "analysis/PathSegment.h"

#include "analysis/FieldShape.h"
#include "analysis/internal/VersionNodeCounts.h"
#include "measure/MeasurePlan.h"
#include "stats/CandidateTail.h"
#include "stats/Distribution.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace oe {

// One node of the field-path trie the ProfileBuilder fills while walking documents. Internal
// to the builder: results leave as FieldProfile values.
struct FieldNode
{
    std::string name;
    FieldNode *parent = nullptr;
    std::vector<std::unique_ptr<FieldNode>> children;
    std::unique_ptr<std::unordered_map<std::string_view, FieldNode *>> index; // many children
    std::size_t hint = 0; // where the last lookup hit: documents repeat their field order

    std::uint32_t typeMask = 0;
    std::uint32_t elementTypeMask = 0;
    std::uint64_t presentDocuments = 0;
    std::uint64_t values = 0;
    std::uint64_t bytes = 0;
    std::uint64_t arrays = 0;
    std::uint64_t elementCount = 0;
    std::uint64_t elementBytes = 0;
    std::unique_ptr<Distribution> lengths; // only for paths that hold arrays
    std::unique_ptr<CandidateTail> tail;   // documents by their longest array here
    FieldShape shape;                      // types, keys, big values (walked documents only)
    // Documents held as examples per slot (FieldShape::examples): checked for every value, so
    // the walk asks for an example only while its slot has room.
    std::array<std::uint8_t, FieldShape::presenceSlot + 1> examplesHeld{};
    // A path the server summarises (server-side measurement): its arrays arrive as summaries.
    const MeasurePlan::Summary *summary = nullptr;
    // Per version group of the documents (VersionWatch), what was counted here.
    std::vector<VersionNodeCounts> versionCounts;

    // Per-document bookkeeping (sequence numbers of the builder's current document).
    std::uint64_t lastDocument = 0;
    // Objects here in a row with the same number of keys, added to shape.keyCounts at once
    // (flushKeys): most objects at a path have the same keys.
    std::uint64_t keysRunValue = 0;
    std::uint64_t keysRun = 0;
    // The current document's largest value here: its longest array, its most keys in one
    // object, its biggest string or binary.
    struct DocumentMax
    {
        std::uint64_t document = 0; // the builder's sequence number of the document
        std::uint64_t value = 0;
        // Takes `v` for document `sequence`; true when it is the document's first here.
        bool offer(std::uint64_t sequence, std::uint64_t v)
        {
            if (document != sequence) {
                document = sequence;
                value = v;
                return true;
            }
            value = v > value ? v : value;
            return false;
        }
    };
    DocumentMax longest;
    DocumentMax mostKeys;
    DocumentMax biggestValue;

    std::string pathCache;

    // Documents repeat their field order, so the child after the last one looked up is almost
    // always the next: that case is inline (it is a large share of a scan's walk).
    FieldNode *child(std::string_view key, std::size_t maxChildren)
    {
        const std::size_t n = children.size();
        if (!index && hint < n && sameKey(children[hint]->name, key)) {
            FieldNode *hit = children[hint].get();
            hint = hint + 1 < n ? hint + 1 : 0;
            return hit;
        }
        return lookUp(key, maxChildren);
    }
    // Field names are short: words compared inline (overlapping at the end) beat a call to
    // memcmp, or a loop over bytes, for each element of every document.
    static bool sameKey(const std::string &name, std::string_view key)
    {
        const std::size_t n = key.size();
        if (name.size() != n)
            return false;
        const char *a = name.data();
        const char *b = key.data();
        if (n >= 8) {
            std::size_t i = 0;
            for (; i + 8 < n; i += 8)
                if (load<std::uint64_t>(a + i) != load<std::uint64_t>(b + i))
                    return false;
            return load<std::uint64_t>(a + n - 8) == load<std::uint64_t>(b + n - 8);
        }
        if (n >= 4)
            return load<std::uint32_t>(a) == load<std::uint32_t>(b) &&
                   load<std::uint32_t>(a + n - 4) == load<std::uint32_t>(b + n - 4);
        for (std::size_t i = 0; i < n; ++i)
            if (a[i] != b[i])
                return false;
        return true;
    }
    template <typename Word> static Word load(const char *p)
    {
        Word w;
        std::memcpy(&w, p, sizeof w);
        return w;
    }
    FieldNode *lookUp(std::string_view key, std::size_t maxChildren);
    // The name the children past the cap share (documented as the "*" path segment).
    static constexpr std::string_view kOtherKeys = PathSegment::kOtherKeys;
    void countKeys(std::uint64_t keys, std::uint64_t times = 1)
    {
        if (keys != keysRunValue) {
            shape.keyCounts.add(keysRunValue, keysRun);
            keysRunValue = keys;
            keysRun = 0;
        }
        keysRun += times;
    }
    // Adds the pending run of key counts, here and below.
    void flushKeys();
    // Adds what `from` counted (its children by name, recursively); `from` is left spent.
    void absorb(FieldNode &from, std::size_t maxChildren);
    const std::string &path();
    bool insideArray() const;
    int depth() const;
};

} // namespace oe
