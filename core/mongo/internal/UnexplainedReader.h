#pragma once

#include "measure/MeasurePlan.h"
#include "source/DocumentBatch.h"
#include "source/SourceError.h"

#include <mongoc/mongoc.h>

#include <string>
#include <unordered_set>

namespace oe {

class MongoConnection;

// The second look of a server-side measurement: each document in a batch of measurements
// whose figures the plan does not explain (MeasureReply::explained: a rare array, an element of
// an unlearnt type, an array on the way to a path) is read whole by its _id, in one find per
// batch, and takes its measurement's place (MeasureReply::whole). A document gone by then keeps
// its measurement. So is each document whose _id is in `unseen` (UnseenFieldFinder), whatever its
// figures say. Internal to the live source.
class UnexplainedReader
{
public:
    static bool resolve(const MongoConnection &connection, mongoc_collection_t *collection,
                        const MeasurePlan &plan, const std::unordered_set<std::string> *unseen,
                        qint64 maxTimeMs, DocumentBatch &batch, SourceError *error);
};

} // namespace oe
