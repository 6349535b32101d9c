#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

// tst_sharding's own placement of documents on shards: the chunks it writes into
// config.chunks, and which chunk's [min, max) holds a document's shard key in MongoDB's order,
// read with plain libbson (not the product's ShardLayout, which it checks).
namespace fixtures {

// A chunk as the test writes it into config.chunks: the shard key values [min, max) (documents
// of the key's fields) on `shard`.
struct Chunk
{
    QByteArray min, max;
    QString shard;
    bool jumbo = false;
};

// The chunks of a JSON array of {min, max, shard[, jumbo]}, as seedLayout writes them.
QList<Chunk> chunksOf(const QString &json);
int chunksOn(const QList<Chunk> &chunks, const QString &shard, bool jumboOnly = false);
// The fields of a shard key pattern: {region: 1, n: 1} -> region, n.
QStringList keyFields(const QString &pattern);
// The shard of the chunk whose [min, max) holds `doc`'s key; empty if none does.
QString shardOf(const QByteArray &doc, const QStringList &fields, const QList<Chunk> &chunks);

} // namespace fixtures
