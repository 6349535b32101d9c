#pragma once

#include "measure/MeasurePlan.h"

#include <QByteArray>

namespace oe {

// The projection that makes the server measure each document (MongoDB 4.4+: $bsonSize), as
// BSON bytes for a find's `projection` or an aggregation's `$project`. Each document comes back
// as {_id, s: its BSON size, d: {k: the document with each array at a plan path replaced by
// its summary}}, or as {_id, s, d: {w: the whole document}} when one of those arrays holds what
// a summary cannot stand for: an array directly inside it, or more bytes per element than the
// plan's limit (something the discovery read did not see). A summary is the array
//   [length, $bsonSize({x: array}), [element $types], child record...]
// and a child record, for each plan child in order (fields of the elements that hold arrays),
//   [values, sum of $bsonSize({x: value}), [$types], [lengths of the arrays],
//    sum of $bsonSize({x: array}), [$types of their elements]].
// The server's work per document is a few operators per array and per child value, never per
// element of an array beyond $type. Field names reach the server only as plain path segments
// (MeasurePlan::plainName).
class MeasureProjection
{
public:
    static QByteArray build(const MeasurePlan &plan);
    // The discovery read's projection: {d: the document with each top-level array cut to its
    // first `keep` elements}; what a plan is learnt from without moving whole arrays.
    static QByteArray discovery(int keep);
    // The field names build() gives the measured document.
    static constexpr const char *kSize = "s";
    static constexpr const char *kDocument = "d";
    static constexpr const char *kSkeleton = "k";
    static constexpr const char *kWhole = "w";
};

} // namespace oe
