#include "shard/ShardLayout.h"

#include "bson/internal/BsonRaw.h"

#include <bson/bson.h>

#include <algorithm>

namespace oe {

int ShardLayout::shardOf(const QByteArray &keyValues) const
{
    if (key.isHashed() || chunks.empty())
        return -1;
    // The last chunk whose min is <= the values, if the values are below its max.
    const auto after = std::upper_bound(
        chunks.begin(), chunks.end(), keyValues,
        [](const QByteArray &v, const Chunk &c) { return ShardKey::compareValues(v, c.min) < 0; });
    if (after == chunks.begin())
        return -1;
    const Chunk &chunk = *(after - 1);
    return ShardKey::compareValues(keyValues, chunk.max) < 0 ? chunk.shard : -1;
}

int ShardLayout::shardIndex(const QString &id) const
{
    for (std::size_t i = 0; i < shards.size(); ++i)
        if (shards[i].id == id)
            return int(i);
    return -1;
}

int ShardLayout::chunksOn(int shard) const
{
    return int(std::count_if(chunks.begin(), chunks.end(),
                             [&](const Chunk &c) { return c.shard == shard; }));
}

int ShardLayout::jumboChunksOn(int shard) const
{
    return int(std::count_if(chunks.begin(), chunks.end(),
                             [&](const Chunk &c) { return c.shard == shard && c.jumbo; }));
}

int ShardLayout::jumboChunks() const
{
    return int(std::count_if(chunks.begin(), chunks.end(), [](const Chunk &c) { return c.jumbo; }));
}

std::vector<QByteArray> ShardLayout::idLowerBounds() const
{
    std::vector<QByteArray> bounds;
    if (!key.isRangedOnIdOnly())
        return bounds;
    // The first chunk starts at the key's lowest value (MinKey): no cut there.
    for (std::size_t i = 1; i < chunks.size(); ++i) {
        const Chunk &c = chunks[i];
        bson_t doc;
        bson_iter_t it;
        if (bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(c.min.constData()),
                             std::size_t(c.min.size())) &&
            bson_iter_init_find(&it, &doc, "_id") && !BSON_ITER_HOLDS_MINKEY(&it))
            bounds.push_back(bsonraw::valueOf(&it));
    }
    return bounds;
}

QString ShardLayout::describe() const
{
    const int jumbo = jumboChunks();
    return QStringLiteral("sharded on %1: %2 shard(s), %3 chunk(s)%4")
        .arg(key.toText())
        .arg(shards.size())
        .arg(chunks.size())
        .arg(jumbo > 0 ? QStringLiteral(" (%1 jumbo)").arg(jumbo) : QString());
}

} // namespace oe
