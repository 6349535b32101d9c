#include "ShardPlacement.h"

#include "BsonFixtures.h"
#include "LiveDocuments.h"

#include <bson/bson.h>

#include <algorithm>
#include <optional>
#include <string_view>

namespace fixtures {

namespace {

bool iterAt(const QByteArray &doc, const QString &field, bson_iter_t *it)
{
    bson_t b;
    const QByteArray key = field.toUtf8();
    return bson_init_static(&b, reinterpret_cast<const uint8_t *>(doc.constData()),
                            std::size_t(doc.size())) &&
           bson_iter_init_find(it, &b, key.constData());
}

// MongoDB's order of BSON types, for those the keys and chunk bounds here hold.
enum TypeRank
{
    kMinKey,
    kNull,
    kNumber,
    kString,
    kBoolean,
    kMaxKey,
    kUnordered
};

TypeRank typeRank(bson_type_t type)
{
    switch (type) {
    case BSON_TYPE_MINKEY:
        return kMinKey;
    case BSON_TYPE_NULL:
        return kNull;
    case BSON_TYPE_INT32:
    case BSON_TYPE_INT64:
    case BSON_TYPE_DOUBLE:
        return kNumber;
    case BSON_TYPE_UTF8:
        return kString;
    case BSON_TYPE_BOOL:
        return kBoolean;
    case BSON_TYPE_MAXKEY:
        return kMaxKey;
    default:
        return kUnordered; // none of this test's values
    }
}

// -1, 0 or 1 as the value at `a` sorts before, with or after the one at `b` in MongoDB's order
// (strings by their bytes: the simple collation); nullopt for a type typeRank does not order.
std::optional<int> compareValues(const bson_iter_t *a, const bson_iter_t *b)
{
    const TypeRank ra = typeRank(bson_iter_type(a)), rb = typeRank(bson_iter_type(b));
    if (ra == kUnordered || rb == kUnordered)
        return std::nullopt;
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (ra == kNumber) {
        const double x = bson_iter_as_double(a), y = bson_iter_as_double(b);
        return int(x > y) - int(x < y);
    }
    if (ra == kString) {
        std::uint32_t la = 0, lb = 0;
        const char *sa = bson_iter_utf8(a, &la), *sb = bson_iter_utf8(b, &lb);
        const int c = std::string_view(sa, la).compare(std::string_view(sb, lb));
        return int(c > 0) - int(c < 0);
    }
    if (ra == kBoolean)
        return int(bson_iter_bool(a)) - int(bson_iter_bool(b));
    return 0; // null, MinKey, MaxKey: one value each
}

// `doc`'s shard key (its values of `fields`, in order) against a chunk bound: -1, 0 or 1;
// nullopt if either lacks a field or holds a value compareValues does not order.
std::optional<int> compareKey(const QByteArray &doc, const QByteArray &bound,
                              const QStringList &fields)
{
    for (const QString &field : fields) {
        bson_iter_t a, b;
        if (!iterAt(doc, field, &a) || !iterAt(bound, field, &b))
            return std::nullopt;
        const std::optional<int> order = compareValues(&a, &b);
        if (!order || *order != 0)
            return order;
    }
    return 0;
}

} // namespace

// The chunks of a JSON array of {min, max, shard[, jumbo]}, as seedLayout writes them.
QList<Chunk> chunksOf(const QString &json)
{
    QList<Chunk> chunks;
    const QByteArray array =
        fixtures::bson(QStringLiteral("{\"c\": %1}").arg(json).toUtf8().constData());
    // Raw values: a document's bytes follow its type byte; a string's, its type and length.
    for (const QByteArray &element : fixtures::elementsOf(array, QStringLiteral("c"))) {
        const QByteArray chunk = element.mid(1);
        Chunk c;
        c.min = fixtures::fieldOf(chunk, QStringLiteral("min")).mid(1);
        c.max = fixtures::fieldOf(chunk, QStringLiteral("max")).mid(1);
        c.shard =
            QString::fromUtf8(fixtures::fieldOf(chunk, QStringLiteral("shard")).mid(5).chopped(1));
        c.jumbo = fixtures::fieldOf(chunk, QStringLiteral("jumbo")) == QByteArray("\x08\x01", 2);
        chunks << c;
    }
    return chunks;
}

int chunksOn(const QList<Chunk> &chunks, const QString &shard, bool jumboOnly)
{
    return int(std::count_if(chunks.begin(), chunks.end(), [&](const Chunk &c) {
        return c.shard == shard && (c.jumbo || !jumboOnly);
    }));
}

// The fields of a shard key pattern: {region: 1, n: 1} -> region, n.
QStringList keyFields(const QString &pattern)
{
    QStringList fields;
    const QByteArray doc = fixtures::bson(pattern.toUtf8().constData());
    bson_t b;
    bson_iter_t it;
    if (bson_init_static(&b, reinterpret_cast<const uint8_t *>(doc.constData()),
                         std::size_t(doc.size())) &&
        bson_iter_init(&it, &b))
        while (bson_iter_next(&it))
            fields << QString::fromUtf8(bson_iter_key(&it));
    return fields;
}

// The shard of the chunk whose [min, max) holds `doc`'s key; empty if none does.
QString shardOf(const QByteArray &doc, const QStringList &fields, const QList<Chunk> &chunks)
{
    for (const Chunk &c : chunks) {
        const std::optional<int> fromMin = compareKey(doc, c.min, fields);
        const std::optional<int> toMax = compareKey(doc, c.max, fields);
        if (fromMin && toMax && *fromMin >= 0 && *toMax < 0)
            return c.shard;
    }
    return {};
}

} // namespace fixtures
