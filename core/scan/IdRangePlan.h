#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace oe {

// How a full scan cuts a collection's `_id` space into ranges read by cursors at once. The
// ranges cover the values of one type class (the cut type: ObjectId, numbers, strings or
// dates), from the boundaries; `_id`s of other types are read once more by a leftover cursor
// (the server compares values of one type class only, so `_id < b` never matches them). Values
// are raw BSON (type byte + value bytes). A value type: it goes into the resume state.
struct IdRangePlan
{
    enum class Origin
    {
        Whole,           // no cut type found (empty collection, or no cuttable _id): one cursor
        ShardChunks,     // a sharded collection's chunk boundaries (config.chunks)
        ServerSample,    // quantiles of a $sample of _ids
        ReservoirSample, // quantiles of a reservoir sample of _ids (servers without $sample)
        FirstId,         // one range: the type of the first _id (no sample needed)
    };

    Origin origin = Origin::Whole;
    QByteArray pivot;                   // a value of the cut type; empty for Whole
    std::vector<QByteArray> boundaries; // strictly increasing, of the cut type class
    std::size_t sampled = 0;            // _ids the boundaries were chosen from

    bool isWhole() const { return pivot.isEmpty(); }
    // Ranges of the cut type (1 for Whole).
    int typedRanges() const { return isWhole() ? 1 : int(boundaries.size()) + 1; }
    int cutTypeRank() const;
    // "4 ranges of ObjectId from quantiles of 4,096 sampled _ids ($sample), plus the other types"
    QString describe() const;

    // Quantile boundaries for `ranges` ranges from a sample of _ids: the cut type is the most
    // frequent cuttable type class in the sample (ties: the lower rank); fewer ranges when the
    // sample has fewer distinct values.
    static IdRangePlan fromSample(std::vector<QByteArray> ids, int ranges, Origin origin);
    // Boundaries among a sharded collection's chunk lower bounds (sorted, MinKey left out),
    // about as many chunks in each range.
    static IdRangePlan fromChunkBounds(std::vector<QByteArray> lowerBounds, int ranges);
};

} // namespace oe
