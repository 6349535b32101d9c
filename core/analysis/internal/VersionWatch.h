#pragma once

#include "analysis/VersionTally.h"
#include "analysis/internal/FieldNode.h"
#include "analysis/internal/VersionNodeCounts.h"

#include <bson/bson.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace oe {

// The builder's side of VersionTally: before each document's walk it reads the document's
// version values (the top-level fields it watches), and while the walk visits a value it counts
// it for each of those versions (VersionNodeCounts on the node). A document without any watched
// field costs one look at its top-level keys.
class VersionWatch
{
public:
    static constexpr std::size_t kMaxNames = 8;

    explicit VersionWatch(const std::vector<std::string> &names = {});

    // Finds the version values of the document `start` starts (a fresh top-level iterator;
    // copied into a local, as bson_iter_t wants an alignment a by-value parameter lacks).
    // `weight`: the documents it stands for (a skeleton counted in the cluster; 0: one
    // example's, which counts nothing); `examples`: whether its values are offered as examples.
    void begin(const bson_iter_t *start, std::uint64_t weight = 1, bool examples = true);
    // Documents offered out of order (counted in the cluster): each slot keeps its earliest.
    void setExamplesInAnyOrder(bool anyOrder) { m_anyOrder = anyOrder; }
    bool active() const { return m_activeCount > 0; }
    // Counts a value of type `slot` (TypeCounts) at `node`, or an array element of that type
    // (`element`), for each version of the current document; `id` gives its _id's raw form.
    template <typename Id>
    void count(FieldNode *node, int slot, bool element, std::uint64_t sequence,
               std::uint64_t docIndex, Id &&id)
    {
        for (int i = 0; i < m_activeCount; ++i) {
            VersionNodeCounts &c = countsAt(node, m_active[std::size_t(i)]);
            if (!element && c.lastDocument != sequence) {
                c.lastDocument = sequence;
                c.counts.presentDocuments += m_weight;
                example(c, FieldShape::presenceSlot, docIndex, id);
            }
            if (element) {
                c.counts.elementTypes.n[std::size_t(slot)] += m_weight;
                example(c, FieldShape::elementSlot(slot), docIndex, id);
            } else {
                c.counts.types.n[std::size_t(slot)] += m_weight;
                example(c, slot, docIndex, id);
            }
        }
    }
    // The document was walked whole (`fields` and `depth` as DocumentShape counts them): its
    // versions count it (`weight` times; 0: nothing).
    void finish(std::uint64_t fields, std::uint64_t depth, std::uint64_t weight = 1);
    // What was counted, as paths (the nodes' counts are left spent).
    VersionTally take();

private:
    struct Watched
    {
        std::string name;
        std::uint64_t watched = 0, present = 0, unfit = 0;
        bool tooManyValues = false;
        std::vector<std::pair<std::string, int>> values; // raw value, group number
    };
    template <typename Id>
    void example(VersionNodeCounts &c, int slot, std::uint64_t docIndex, Id &&id)
    {
        if (!m_examples)
            return;
        if (m_anyOrder) {
            FieldShape::addExampleTo(c.counts.examples, {slot, docIndex, id()});
            return;
        }
        std::uint8_t &held = c.examplesHeld[std::size_t(slot)];
        if (held < FieldShape::kExamplesPerSlot) {
            c.counts.examples.push_back({slot, docIndex, id()});
            ++held;
        }
    }
    VersionNodeCounts &countsAt(FieldNode *node, int group);
    int groupOf(Watched &w, const bson_iter_t *iter);

    std::vector<Watched> m_watched;
    std::uint64_t m_lengths = 0; // bit n: a watched name has n bytes (a cheap first test)
    struct GroupCounts
    {
        std::uint64_t documents = 0;
        Distribution fieldCounts, depths;
    };
    struct RestCounts
    {
        Distribution fieldCounts, depths;
    };
    std::vector<GroupCounts> m_groups; // by group number
    std::vector<int> m_groupField;     // by group number: m_watched's index
    std::vector<RestCounts> m_rest;    // by m_watched's index
    std::array<int, kMaxNames> m_active{};
    int m_activeCount = 0;
    std::uint64_t m_weight = 1; // the current document's (begin)
    bool m_examples = true;     // ... whether it offers examples
    bool m_anyOrder = false;
    std::vector<FieldNode *> m_nodes; // nodes holding counts
};

} // namespace oe
