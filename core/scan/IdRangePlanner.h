#pragma once

#include "mongo/LiveQuery.h"
#include "scan/IdRangePlan.h"
#include "source/SourceError.h"

#include <atomic>
#include <optional>

namespace oe {

class MongoConnection;
struct ConnectionSettings;

// Chooses where a parallel full scan cuts the `_id` space: at the chunk boundaries of a
// collection sharded on {_id: 1} (config.chunks, through mongos), else at quantiles of a
// sample of _ids ($sample, or a uniform reservoir over an _id-only scan where the server lacks
// $sample). The sample honours the query's filter. One range needs no sample: the cut type is
// the first _id's. Blocking; nullopt with `error` when the server could not be read. With
// `killWith` (the connection's settings), a cancel kills the $sample on the server too (a filter
// the server evaluates slowly makes it read as long as a pass).
class IdRangePlanner
{
public:
    static constexpr int kSampleSize = 4096;

    static std::optional<IdRangePlan> plan(MongoConnection &connection, const LiveQuery &query,
                                           int ranges, const std::atomic<bool> *cancel,
                                           SourceError *error,
                                           const ConnectionSettings *killWith = nullptr);
};

} // namespace oe
