#include "shard/ShardBreakdown.h"

#include "mongo/MongoConnection.h"
#include "shard/ShardCatalog.h"

#include <set>

namespace oe {

std::vector<ShardBreakdown::Row> ShardBreakdown::rows(const OutlierReport &outliers) const
{
    std::vector<Row> out(layout.shards.size() + 1);
    for (std::size_t i = 0; i < layout.shards.size(); ++i) {
        out[i].shard = layout.shards[i].id;
        out[i].host = layout.shards[i].host;
        out[i].chunks = layout.chunksOn(int(i));
        out[i].jumboChunks = layout.jumboChunksOn(int(i));
    }
    Row &unplaced = out.back();
    unplaced.shard = QStringLiteral("(not placed)");
    std::set<std::string> seen;
    for (const OutlierRow &r : outliers.rows) {
        if (!seen.insert(r.rawId).second)
            continue;
        const auto it = shardOf.find(r.rawId);
        Row &row = it == shardOf.end() ? unplaced : out[std::size_t(it->second)];
        ++row.outlierDocuments;
        row.outlierBytes += r.bsonSize;
        if (r.bsonSize > outliers.size.value)
            row.bytesOverThreshold += r.bsonSize - outliers.size.value;
    }
    if (unplaced.outlierDocuments == 0)
        out.pop_back();
    return out;
}

std::optional<ShardBreakdown> ShardBreakdown::read(const ConnectionSettings &settings,
                                                   const QString &database,
                                                   const QString &collection,
                                                   const std::vector<std::string> &ids)
{
    SourceError error;
    const auto connection = MongoConnection::open(settings, &error);
    if (!connection)
        return std::nullopt;
    ShardBreakdown breakdown;
    auto layout = ShardCatalog::load(*connection, database, collection, &breakdown.note);
    if (!layout)
        return std::nullopt;
    breakdown.layout = std::move(*layout);
    if (breakdown.layout.key.isHashed())
        breakdown.note = QStringLiteral("the shard key %1 is hashed: outliers are not placed on "
                                        "shards (chunks hold ranges of hashes)")
                             .arg(breakdown.layout.key.toText());
    else if (!ShardCatalog::locate(*connection, breakdown.layout, database, collection, ids,
                                   &breakdown.shardOf, &error))
        breakdown.note = error.message;
    return breakdown;
}

} // namespace oe
