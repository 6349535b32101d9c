#pragma once

#include "measure/MeasurePlan.h"

#include <QByteArray>
#include <QJsonObject>

#include <cstdint>

namespace oe {

// The projection that makes the server measure each document (MongoDB 4.4+: $bsonSize), as
// BSON bytes for a find's `projection` or an aggregation's `$project`. Each document comes back
// as {_id, s: its BSON size, a: [one record per plan summary, in order]}, a record being
//   null                       the path is missing
//   "!"                        an object on the way is an array (MeasureReply reads it whole)
//   [$type, $bsonSize({x: v})] the value is no array
//   [length, $bsonSize({x: array}), element check, [lengths of child arrays]...]
// where $bsonSize({x: array}) may be computed as the document's size less its size without the
// array (MeasurePlan::ArrayBytes), and the element check is the number of elements not of the one
// type the plan learnt, or the list of the element types present when it learnt several. Where
// the plan has the projection check them (MeasurePlan::ElementCheck), a top-level array's record
// has no element check: the document carries the array's own field, {path: [the first element
// of another type]}, only where there is such an element. The
// server's work per document is a few operators per array and one cheap test per element: no
// document, no element travels. A document the records do not explain is read whole afterwards
// (MeasureReply, the live source's second look). Field names reach the server only as plain path
// segments (MeasurePlan::plainName).
class MeasureProjection
{
public:
    static QByteArray build(const MeasurePlan &plan);
    // The same projection as expressions ({_id: 1, s: …, a: […]}), for a stage that evaluates
    // them itself (a $group's key).
    static QJsonObject fields(const MeasurePlan &plan);
    // The discovery read's projection: {d: the document with each top-level array cut to its
    // first `keep` elements}; what a plan is learnt from without moving whole arrays.
    // With `Checks::Operators`, also {c: a constant computed with $bsonSize, $setField and
    // $unsetField}: a server without one of them refuses the whole read before reading a
    // document (an unknown operator fails the parse), so a read it answers has proven them.
    enum class Checks : std::uint8_t
    {
        None,
        Operators
    };
    static QByteArray discovery(int keep, Checks checks = Checks::None);
    // The field names build() gives the measured document.
    static constexpr const char *kSize = "s";
    static constexpr const char *kDocument = "d";
    static constexpr const char *kRecords = "a";
    static constexpr const char *kWhole = "w"; // {s, d: {w: document}}: a document read whole
    static constexpr const char *kThroughArray = "!";
};

} // namespace oe
