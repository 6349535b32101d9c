#pragma once

#include "analysis/ProfileBuilder.h"
#include "measure/MeasureReply.h"
#include "measure/ShapePlan.h"
#include "measure/TallyPipelines.h"
#include "scan/ShapeSkeleton.h"
#include "stats/TailFence.h"

#include <QByteArray>
#include <QString>

#include <bson/bson.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace oe {

// The shape's side of a scan counted in the cluster (ServerTally, with a ShapePlan). Each row
// of the tallies stands for regular documents alike: their skeleton (ShapeSkeleton) is walked
// once for them all, the bytes of their strings, binaries, arrays and _id set right from the
// row's sums and records, and the first of them (the row's `f`) are its examples once their
// positions are known. The shape's tails (the most fields, the deepest, the most keys per
// object path) are fenced like the measurement's (TailFence): the candidates pass returns the
// documents they may keep too.
class ShapeTally
{
public:
    ShapeTally(std::shared_ptr<const ShapePlan> shape, const ProfileBuilder::Limits &limits,
               ProfileBuilder &builder);

    // The (path, type bit) pairs of a row's $type tuple (its key's k) that the plan does not
    // know at a path outside arrays: a row of irregular documents, which are read whole
    // (ShapePlan::regular leaves those types to the tuple).
    std::vector<std::pair<int, std::uint32_t>> unknownTypes(const bson_t *key) const;
    // An explained row {_id: {t, i, m, k}, n, x<i>, f} whose types the plan knows (the caller
    // leaves out those unknownTypes names) of `times` documents measured as
    // `reply`, their _id of type `idTypeBit` taking `idBytes` as an element. False, with the
    // reason, where it cannot be counted (the caller declines).
    bool count(const bson_t *row, const bson_t *key, const MeasureReply &reply,
               std::uint32_t idTypeBit, std::uint64_t idBytes, std::uint64_t times,
               QString *problem);
    // The fences of the shape's tails for the candidates pass (the values each passes over
    // told).
    std::vector<TallyPipelines::Fence> fences();
    std::uint64_t expectedCandidates() const;
    // Each fence's lists by the rows' $type tuples (TallyPipelines::shapeCandidates).
    std::vector<TallyPipelines::ShapeList>
    lists(const std::vector<TallyPipelines::Fence> &fences) const;
    // One document of the candidates pass ({_id, r, s, h: {fc, dp, k<i>}}).
    void candidate(const bson_t *entry, std::int64_t recordId);
    // Where every row counted named each of its documents (its f held them all), each one is
    // a candidate of every tail with its row's figures: taken as the candidates pass's, and
    // true; false where a row did not (the candidates pass finds them).
    bool takeKnown();
    static constexpr std::size_t kMaxKnown = 200000;
    // The record ids whose positions finish() needs.
    std::vector<std::int64_t> toPlace() const;
    // Offers the examples and candidates at their positions (none: not in the scope any more);
    // the documents read whole (`whole`, by record id) offer themselves.
    void finish(const std::function<std::optional<std::uint64_t>(std::int64_t)> &positionOf,
                const std::unordered_map<std::int64_t, std::string> &whole);
    std::size_t candidates() const { return m_entries.size(); }

private:
    struct Tail
    {
        int id = 0; // TallyPipelines::kFieldsTail, kDepthTail or an object path
        TailFence fence;
    };
    struct First
    {
        std::int64_t recordId = 0;
        std::string rawId;
        std::size_t skeleton = 0;
    };
    struct Entry
    {
        std::int64_t recordId = 0;
        std::string rawId;
        std::uint64_t size = 0;
        std::vector<std::uint64_t> values; // per tail
    };
    static bool typesOf(const bson_t *key, std::vector<std::uint32_t> *types);
    void fix(const ShapeSkeleton &skeleton, const bson_t *row, const MeasureReply &reply,
             std::uint32_t idTypeBit, std::uint64_t idBytes, std::uint64_t times);
    int builderTail(const Tail &t) const;
    const std::vector<std::string> &objectOf(const Tail &t) const;

    std::shared_ptr<const ShapePlan> m_shape;
    ProfileBuilder &m_builder;
    std::vector<Tail> m_tails;
    std::vector<QByteArray> m_skeletons; // of the rows with examples
    std::vector<First> m_firsts;
    std::vector<Entry> m_entries;
    std::vector<Entry> m_known; // each document of the rows, while every row named them all
    bool m_knowing = true;
    std::unordered_set<std::int64_t> m_taken; // record ids of m_entries
    // The rows' $type tuples, each with its value for each tail.
    std::map<std::vector<std::uint32_t>, std::vector<std::uint64_t>> m_tuples;
};

} // namespace oe
