#pragma once

#include "measure/MeasurePlan.h"
#include "measure/ShapePlan.h"

#include <QByteArray>

#include <cstdint>
#include <optional>
#include <utility>
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
// key gains k: [the $type at each of its paths], each row loses e and w (a regular document is
// explained by its shape) and gains x<i>: the bytes of the strings and
// binaries at variable path i past those of empty ones, summed, and f: the first
// kFirstDocuments of the row by record id ({r, i: _id}), the documents its examples are; where
// the scope asks for no record ids (and no top-level field is named as the tallies' own), one
// $group over the documents as they are, without lo and hi, and f the first kFirstDocuments the
// pass reads ({i: _id}: read it in natural order; TallyRun places them). The
// candidates gain h: {fc: its fields, dp: its depth, k<i>: the keys of the object at object path
// i} of each document (each path's $type read once) where shapeCandidates and shapeTied pick the
// shape's tails' documents (kFieldsTail, kDepthTail or an object path's index).
// No field name reaches the server but as MeasureProjection and the schemas put it.
class TallyPipelines
{
public:
    struct Scope
    {
        QByteArray filter; // BSON document bytes; empty: every document
        std::optional<std::uint64_t> limit;
        QByteArray schema; // BSON {$jsonSchema: …}; empty: none
        // The tallies' own filter for the documents the schema accepts, where the unseen pass
        // named the few it rejects ({_id: {$nin: …}}: cheaper than the schema again); empty:
        // the schema.
        QByteArray regular;
        // The shape's tallies keep each row's record ids (lo, hi, f's r). Without, they need no
        // $project before the $group, which copies every document (two fifths of the pass on a
        // million small documents): mongod gives {$meta: "recordId"} only to a projection the
        // scan itself runs.
        bool recordIds = true;
    };
    // A tail's fence: ProfileBuilder::kLargestTail, kLongestTail or a node, and its value.
    struct Fence
    {
        int tail = 0;
        std::uint64_t atLeast = 0;
        std::uint64_t tied = 0; // how many at the fence value it keeps (the first by position)
        // More documents share the fence value than it keeps: the first `tied` come from a
        // pass of their own (tied()), which stops once it has them, not from the candidates'.
        bool lazyTies = false;
        std::uint64_t above = 0; // documents above the fence value
    };

    static QByteArray unseen(const Scope &scope);
    // The documents of the tallies' rows whose $type tuples hold a type the shape does not know
    // at a path (ShapeTally::unknownTypes: the path's index, the type's bit): {$or: [one clause
    // per pair]}, as BSON; and {_id, r: record id} of each document the scope's schema (or its
    // regular filter) accepts that `condition` picks.
    static QByteArray irregularTypes(const ShapePlan &shape,
                                     const std::vector<std::pair<int, std::uint32_t>> &unknown);
    static QByteArray irregular(const Scope &scope, const QByteArray &condition);
    // The record ids ({_id, r}) of the documents whose _ids (raw values) `ids` names.
    static QByteArray recordIdsOf(const std::vector<QByteArray> &ids);
    // The shape's tallies can do without record ids (Scope::recordIds): no top-level field is
    // named as their figures, and no field of arrays' objects is gathered once for two figures
    // (which their $project does).
    static bool tallyWithoutRecordIds(const ShapePlan &shape);
    static constexpr int kFieldsTail = -3;
    static constexpr int kDepthTail = -4;
    static constexpr std::size_t kFirstDocuments = 3;
    // Whether a fence takes its ties from a pass of their own (Fence::lazyTies): when more
    // documents share its value than it keeps (`cut`), over kLazyTies of them (else the
    // candidates pass sorts them cheaply), and ten times those it keeps (so the pass, in natural
    // order, stops after about a tenth of the collection at most).
    static constexpr std::uint64_t kLazyTies = 20000;
    static constexpr bool lazyTies(bool cut, std::uint64_t sharing, std::uint64_t kept)
    {
        return cut && sharing > kLazyTies && sharing > 10 * kept;
    }

    static QByteArray tallies(const MeasurePlan &plan, const Scope &scope,
                              const ShapePlan *shape = nullptr);
    // The first `fence.tied` documents at the fence value in natural order (run with a hint of
    // {$natural: 1}: the server stops reading once it has them), as candidates lists them.
    static QByteArray tied(const MeasurePlan &plan, const Scope &scope, const Fence &fence);
    // A shape tail's lists by the rows' keys: the $type tuples (per ShapePlan path, BsonTypes
    // bits, 0: missing) of the regular documents above its fence and at it.
    struct ShapeList
    {
        Fence fence;
        std::vector<std::vector<std::uint32_t>> above, at;
    };
    // The shape's candidates, picked by the server's matcher (each tuple a conjunction of
    // $type and $exists, no expression per document): {_id, r, s, h} of the regular documents
    // above each fence, and the first `tied` at it (those of a list with lazyTies come from
    // shapeTied, run with a hint of {$natural: 1}).
    // Past this many clauses (tuples x paths) the tuples would make too large a command: the
    // documents' h picks them (an expression per document).
    static constexpr std::size_t kMaxTupleClauses = 50000;
    static QByteArray shapeCandidates(const ShapePlan &shape, const Scope &scope,
                                      const std::vector<ShapeList> &lists);
    static QByteArray shapeTied(const ShapePlan &shape, const Scope &scope, const ShapeList &list);
    static QByteArray candidates(const MeasurePlan &plan, const Scope &scope,
                                 const std::vector<Fence> &fences,
                                 const std::vector<std::int64_t> &recordIds, bool placed);
};

} // namespace oe
