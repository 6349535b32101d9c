#pragma once

#include "measure/MeasurePlan.h"
#include "measure/ShapePlan.h"

#include <QByteArray>

#include <cstdint>
#include <optional>
#include <vector>

namespace oe {

// The aggregations of a scan counted in the cluster (ServerTally), as BSON bytes of
// {pipeline: [...]}. Each begins with the scan's scope: the user's filter, its limit (in natural
// order, as a find's), and, for the tallies, the documents holding no top-level field the
// discovery did not see (`schema`: {$jsonSchema: …}; the others are read whole). Then
//   unseen      the _id and record id of each document the schema rejects (the matcher only)
//   tallies     the measurement (MeasureProjection) of each document, grouped by it:
//               {_id: {t: $type of _id, i: $bsonSize({x: _id}), m: {s, a}}, n, e: whether the
//               plan explains it (MeasureReply::explained, as an expression), lo/hi: the
//               smallest and largest record id, w: [{r, i: _id}] of the documents it does not
//               explain}: one row per distinct measurement, not per document
//   candidates  the documents a tail may keep, gathered in lists ($facet): per fence (the
//               value of the tail's last place, from the tallies) those above it and the first
//               `tied` at it by record id; and those of `recordIds`. Each document once (a
//               $setUnion of the lists, unwound), as {_id, r: record id, s: size, v<node>: its
//               longest array at each node of MeasurePlan::arrayNodes, l: the longest of them, j:
//               the first node with it[, p: its 1-based place in natural order ($setWindowFields,
//               where `placed`)]}. The values are read from the document (a $size per array), not
//               measured again.
// With a ShapePlan (the scope's schema then its regular()), the tallies count the shape too: the
// key gains k: [the $type at each of its paths], and each row x<i>: the bytes of the strings and
// binaries at variable path i past those of empty ones, summed, and f: the first
// kFirstDocuments of the row by record id ({r, i: _id}), the documents its examples are. The
// candidates gain h: {fc: its fields, dp: its depth, k<i>: the keys of the object at object path
// i} of each document (each path's $type read once), and the shape's tails' lists (kFieldsTail,
// kDepthTail or an object path's index) of the documents not `irregular` (read whole: their
// figures there are not their own, so they take no tail's place).
// No field name reaches the server but as MeasureProjection and the schemas put it.
class TallyPipelines
{
public:
    struct Scope
    {
        QByteArray filter; // BSON document bytes; empty: every document
        std::optional<std::uint64_t> limit;
        QByteArray schema; // BSON {$jsonSchema: …}; empty: none
    };
    // A tail's fence: ProfileBuilder::kLargestTail, kLongestTail or a node, and its value.
    struct Fence
    {
        int tail = 0;
        std::uint64_t atLeast = 0;
        std::uint64_t tied = 0; // how many at the fence value it keeps (the first by position)
    };

    static QByteArray unseen(const Scope &scope);
    static constexpr int kFieldsTail = -3;
    static constexpr int kDepthTail = -4;
    static constexpr std::size_t kFirstDocuments = 3;

    static QByteArray tallies(const MeasurePlan &plan, const Scope &scope,
                              const ShapePlan *shape = nullptr);
    static QByteArray candidates(const MeasurePlan &plan, const Scope &scope,
                                 const std::vector<Fence> &fences,
                                 const std::vector<std::int64_t> &recordIds, bool placed,
                                 const ShapePlan *shape = nullptr,
                                 const std::vector<Fence> &shapeFences = {},
                                 const std::vector<std::int64_t> &irregular = {});
};

} // namespace oe
