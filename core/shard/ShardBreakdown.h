#pragma once

#include "analysis/OutlierReport.h"
#include "shard/ShardLayout.h"

#include <QString>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace oe {

struct ConnectionSettings;

// Where a sharded collection's outliers live: its layout, and the shard of every document the
// analysis may flag (read once, after the scan), so the breakdown follows the thresholds a user
// chooses afterwards without reading again. A value type.
struct ShardBreakdown
{
    struct Row
    {
        QString shard; // "(not placed)" for outliers no chunk was found for
        QString host;
        int chunks = 0;
        int jumboChunks = 0;
        std::uint64_t outlierDocuments = 0;
        std::uint64_t outlierBytes = 0;       // their BSON sizes, summed
        std::uint64_t bytesOverThreshold = 0; // what they hold above the size threshold
    };

    ShardLayout layout;
    std::map<std::string, int> shardOf; // DocumentId compact _id -> index into layout.shards
    QString note;                       // why some outliers could not be placed, if so

    // One row per shard (in layout order), then one for the outliers not placed, if any.
    std::vector<Row> rows(const OutlierReport &outliers) const;

    // Reads the layout of the collection `settings` and `database.collection` name, and places
    // the documents `ids` (compact `_id`s); nullopt when the collection is not sharded. A failed
    // read leaves them unplaced, with the reason in `note`: an analysis never fails for it.
    static std::optional<ShardBreakdown> read(const ConnectionSettings &settings,
                                              const QString &database, const QString &collection,
                                              const std::vector<std::string> &ids);
};

} // namespace oe
