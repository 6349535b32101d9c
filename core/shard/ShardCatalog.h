#pragma once

#include "shard/ShardLayout.h"
#include "source/SourceError.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace oe {

class MongoConnection;

// Reads how a collection is sharded from the cluster's config database, as a mongos serves it
// (config.shards, config.collections, config.chunks; chunks by the collection's uuid since
// MongoDB 5.0, by namespace before), and places documents on shards by their key values.
class ShardCatalog
{
public:
    // The layout of database.collection; nullopt when it is not sharded (no live entry in
    // config.collections) or the config database cannot be read (a user without the right to,
    // a server without one): then `note` says why, and nothing is an error.
    static std::optional<ShardLayout> load(MongoConnection &connection, const QString &database,
                                           const QString &collection, QString *note = nullptr);
    // The shard of each document named by its `_id` (DocumentId's compact form), reading the
    // key's other fields from the collection in batches; ids it cannot place are left out (a
    // hashed key places none). False with `error` when a read failed.
    static bool locate(MongoConnection &connection, const ShardLayout &layout,
                       const QString &database, const QString &collection,
                       const std::vector<std::string> &ids, std::map<std::string, int> *shardOf,
                       SourceError *error);
};

} // namespace oe
