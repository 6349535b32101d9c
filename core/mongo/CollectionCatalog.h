#pragma once

#include "mongo/CollectionInfo.h"
#include "mongo/MongoConnection.h"

#include <vector>

namespace oe {

// Lists databases and collections with their statistics, trying collStats, then the
// $collStats stage, then an estimated count, as servers differ in what they offer.
class CollectionCatalog
{
public:
    static bool databases(MongoConnection &connection, std::vector<DatabaseInfo> *out,
                          SourceError *error);
    static bool collections(MongoConnection &connection, const QString &database,
                            std::vector<CollectionInfo> *out, SourceError *error);
    // Fills the statistics of one collection (views have none); never fails, only omits.
    static void fillStatistics(MongoConnection &connection, CollectionInfo *info);
};

} // namespace oe
