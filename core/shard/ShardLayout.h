#pragma once

#include "shard/ShardKey.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace oe {

// How a sharded collection is spread, as the cluster's config database describes it: the
// shards, the key, and the chunks (each a key range [min, max) on one shard). A value type.
struct ShardLayout
{
    struct Shard
    {
        QString id;
        QString host; // "rs0/host1:27018,host2:27018"
    };
    struct Chunk
    {
        QByteArray min, max; // raw BSON documents of the key's fields (MinKey/MaxKey at the ends)
        int shard = -1;      // index into shards
        bool jumbo = false;  // the balancer could not split or move it
    };

    QString ns;
    ShardKey key;
    std::vector<Shard> shards;
    std::vector<Chunk> chunks; // sorted by min

    // The shard holding a document with these key values (ShardKey::valuesOf); -1 when the key
    // is hashed (ranges are of hashes, not values) or no chunk covers them.
    int shardOf(const QByteArray &keyValues) const;
    int shardIndex(const QString &id) const;
    int chunksOn(int shard) const;
    int jumboChunksOn(int shard) const;
    int jumboChunks() const;
    // For a key of {_id: 1}: the chunks' lower `_id` bounds but the first chunk's (MinKey),
    // else empty.
    std::vector<QByteArray> idLowerBounds() const;
    // "sharded on {region: 1}: 3 shards, 12 chunks (1 jumbo)"
    QString describe() const;
};

} // namespace oe
