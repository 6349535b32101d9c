#include "BsonFixtures.h"

#include "shard/ShardBreakdown.h"
#include "shard/ShardKey.h"
#include "shard/ShardLayout.h"

#include "migration/internal/MigrationQueries.h" // core internal (oecore_internal): the live split's filters

#include <QTest>

// The shard room's pure parts: the key read from config.collections, a document's key values,
// MongoDB's order of key values (MinKey and MaxKey bound the chunks), a document placed on the
// chunk whose [min, max) holds it, and the per-shard breakdown of an outlier report.
class TestShardKey : public QObject
{
    Q_OBJECT

    static oe::ShardKey key(const char *json)
    {
        const auto k = oe::ShardKey::fromBson(fixtures::bson(json));
        if (!k)
            qFatal("not a key: %s", json);
        return *k;
    }
    static QByteArray values(const char *json) { return fixtures::bson(json); }

    // Chunks of {region: 1, n: 1} on three shards: [MinKey, {eu, MinKey}) on ap,
    // [{eu, MinKey}, {eu, 100}) on eu, [{eu, 100}, {us, MinKey}) on eu (jumbo),
    // [{us, MinKey}, MaxKey) on us.
    static oe::ShardLayout layout()
    {
        oe::ShardLayout l;
        l.ns = QStringLiteral("db.posts");
        l.key = key(R"({"region": 1, "n": 1})");
        l.shards = {{QStringLiteral("ap"), QStringLiteral("rs-ap/ap1:27018")},
                    {QStringLiteral("eu"), QStringLiteral("rs-eu/eu1:27018")},
                    {QStringLiteral("us"), QStringLiteral("rs-us/us1:27018")}};
        const char *minKey = R"({"$minKey": 1})", *maxKey = R"({"$maxKey": 1})";
        auto doc = [](const QString &region, const char *n) {
            return fixtures::bson(QStringLiteral(R"({"region": %1, "n": %2})")
                                      .arg(region, QLatin1String(n))
                                      .toUtf8()
                                      .constData());
        };
        const QString mk = QLatin1String(minKey), xk = QLatin1String(maxKey);
        // Out of order on purpose: the catalog sorts; shardOf expects sorted chunks.
        l.chunks = {
            {doc(mk, minKey), doc(QStringLiteral("\"eu\""), minKey), 0, false},
            {doc(QStringLiteral("\"eu\""), minKey), doc(QStringLiteral("\"eu\""), "100"), 1, false},
            {doc(QStringLiteral("\"eu\""), "100"), doc(QStringLiteral("\"us\""), minKey), 1, true},
            {doc(QStringLiteral("\"us\""), minKey), doc(xk, maxKey), 2, false}};
        return l;
    }

private slots:
    void readsKeysAsConfigHoldsThem()
    {
        const oe::ShardKey ranged = key(R"({"region": 1, "_id": 1})");
        QCOMPARE(ranged.paths(), QStringList({QStringLiteral("region"), QStringLiteral("_id")}));
        QVERIFY(!ranged.isHashed());
        QVERIFY(!ranged.isRangedOnIdOnly());
        QCOMPARE(ranged.toText(), QStringLiteral("{region: 1, _id: 1}"));
        QVERIFY(key(R"({"_id": 1})").isRangedOnIdOnly());
        QVERIFY(key(R"({"_id": {"$numberLong": "1"}})").isRangedOnIdOnly());
        const oe::ShardKey hashed = key(R"({"_id": "hashed"})");
        QVERIFY(hashed.isHashed());
        QVERIFY(!hashed.isRangedOnIdOnly());
        QCOMPARE(hashed.toText(), QStringLiteral("{_id: \"hashed\"}"));
        QVERIFY(!oe::ShardKey::fromBson(fixtures::bson("{}")));
        QVERIFY(!oe::ShardKey::fromBson(fixtures::bson(R"({"a": "text"})")));
        QVERIFY(!oe::ShardKey::fromBson(QByteArray("junk")));
    }

    void aFieldOverlapsTheKeyEitherWay()
    {
        const oe::ShardKey k = key(R"({"tenant": 1, "stats.region": 1})");
        QCOMPARE(k.overlapping(QStringLiteral("tenant")), QStringLiteral("tenant"));
        QCOMPARE(k.overlapping(QStringLiteral("stats")), QStringLiteral("stats.region"));
        QCOMPARE(k.overlapping(QStringLiteral("tenant.history")), QStringLiteral("tenant"));
        QCOMPARE(k.overlapping(QStringLiteral("stats.regions")), QString());
        QCOMPARE(k.overlapping(QStringLiteral("comments")), QString());
        QCOMPARE(k.overlapping(QStringLiteral("ten")), QString());
    }

    void keyValuesOfADocumentInKeyOrder()
    {
        const oe::ShardKey k = key(R"({"b.c": 1, "a": 1, "missing": 1})");
        const QByteArray doc = fixtures::bson(R"({"a": 5, "x": [1], "b": {"c": "s", "d": 2}})");
        QCOMPARE(k.valuesOf(doc), values(R"({"b.c": "s", "a": 5, "missing": null})"));
        QVERIFY(k.valuesOf(QByteArray("not bson")).isEmpty());
    }

    void keyValuesCompareAsTheServerOrdersThem()
    {
        using oe::ShardKey;
        QVERIFY(ShardKey::compareValues(values(R"({"a": {"$minKey": 1}})"),
                                        values(R"({"a": null})")) < 0);
        QVERIFY(ShardKey::compareValues(values(R"({"a": 5})"), values(R"({"a": 5.5})")) < 0);
        QVERIFY(ShardKey::compareValues(values(R"({"a": 99})"), values(R"({"a": "0"})")) < 0);
        QVERIFY(ShardKey::compareValues(values(R"({"a": "zz"})"),
                                        values(R"({"a": {"$maxKey": 1}})")) < 0);
        QCOMPARE(ShardKey::compareValues(values(R"({"a": 5, "b": 1})"),
                                         values(R"({"a": {"$numberLong": "5"}, "b": 1})")),
                 0);
        QVERIFY(ShardKey::compareValues(values(R"({"a": 5, "b": 2})"),
                                        values(R"({"a": 5, "b": 10})")) < 0);
        QVERIFY(ShardKey::compareValues(values(R"({"a": 6, "b": 0})"),
                                        values(R"({"a": 5, "b": 10})")) > 0);
    }

    void aDocumentLivesOnTheChunkHoldingItsKey()
    {
        oe::ShardLayout l = layout();
        QCOMPARE(l.shardOf(values(R"({"region": "ap", "n": 1})")), 0);
        QCOMPARE(l.shardOf(values(R"({"region": null, "n": 1})")), 0); // a missing key field
        QCOMPARE(l.shardOf(values(R"({"region": "eu", "n": 99})")), 1);
        QCOMPARE(l.shardOf(values(R"({"region": "eu", "n": 100})")), 1); // min is inclusive
        QCOMPARE(l.shardOf(values(R"({"region": "eu", "n": 1e9})")), 1);
        QCOMPARE(l.shardOf(values(R"({"region": "us", "n": -5})")), 2);
        QCOMPARE(l.shardOf(values(R"({"region": "zz", "n": 0})")), 2);
        QCOMPARE(l.chunksOn(1), 2);
        QCOMPARE(l.jumboChunksOn(1), 1);
        QCOMPARE(l.jumboChunks(), 1);
        QCOMPARE(l.describe(), QStringLiteral("sharded on {region: 1, n: 1}: 3 shard(s), 4 "
                                              "chunk(s) (1 jumbo)"));
        QVERIFY(l.idLowerBounds().empty()); // not a key on _id
        // A gap in the chunks (metadata read mid-change) places nothing there.
        l.chunks.erase(l.chunks.begin() + 1);
        QCOMPARE(l.shardOf(values(R"({"region": "eu", "n": 5})")), -1);
        // A hashed key's chunks hold hashes: nothing is placed by value.
        l.key = key(R"({"region": "hashed"})");
        QCOMPARE(l.shardOf(values(R"({"region": "us"})")), -1);
    }

    void idKeyChunksGiveIdBoundaries()
    {
        oe::ShardLayout l;
        l.key = key(R"({"_id": 1})");
        l.shards = {{QStringLiteral("a"), {}}, {QStringLiteral("b"), {}}};
        l.chunks = {{values(R"({"_id": {"$minKey": 1}})"), values(R"({"_id": 100})"), 0, false},
                    {values(R"({"_id": 100})"), values(R"({"_id": {"$maxKey": 1}})"), 1, false}};
        const std::vector<QByteArray> bounds = l.idLowerBounds();
        QCOMPARE(bounds.size(), std::size_t(1));
        QCOMPARE(bounds[0], QByteArray("\x10\x64\x00\x00\x00", 5)); // int32 100
        QCOMPARE(l.shardOf(values(R"({"_id": 99})")), 0);
        QCOMPARE(l.shardOf(values(R"({"_id": 100})")), 1);
    }

    // mongos routes an update by the shard key: the split's guard and its write-backs name it,
    // with the values the document held when it was read (null for a missing field).
    void everyGuardedFilterNamesTheShardKey()
    {
        oe::SplitConfig c;
        c.collection = QStringLiteral("posts");
        c.field = QStringLiteral("comments");
        c = c.withDefaults();
        const QByteArray doc =
            fixtures::bson(R"({"_id": 7, "region": "eu", "comments": [1, 2, 3]})");
        const QByteArray id("\x10\x07\x00\x00\x00", 5), last("\x10\x03\x00\x00\x00", 5);
        const QByteArray plain = oe::migration::guard(c, id, 3, last, false, doc);
        QCOMPARE(plain, fixtures::bson(R"({"_id": 7, "comments": {"$size": {"$numberLong": "3"}},
                                           "comments.2": 3, "has_extras": {"$ne": true}})"));
        c.shardKey = QStringList{QStringLiteral("region"), QStringLiteral("_id"),
                                 QStringLiteral("meta.tenant")};
        QCOMPARE(oe::migration::guard(c, id, 3, last, true, doc),
                 fixtures::bson(R"({"_id": 7, "region": "eu", "meta.tenant": null,
                                    "comments": {"$size": {"$numberLong": "3"}},
                                    "comments.2": 3, "has_extras": true})"));
        QCOMPARE(oe::migration::byIdAndKey(c, id, doc),
                 fixtures::bson(R"({"_id": 7, "region": "eu", "meta.tenant": null})"));
    }

    void breakdownCountsEachOutlierOnceOnItsShard()
    {
        oe::ShardBreakdown b;
        b.layout = layout();
        b.shardOf = {{"a", 0}, {"b", 1}, {"c", 1}};
        oe::OutlierReport report;
        report.size.value = 1000;
        auto row = [](const char *id, std::uint64_t size) {
            oe::OutlierRow r;
            r.rawId = id;
            r.bsonSize = size;
            return r;
        };
        // "b" twice (a size reason and an array reason); "d" could not be placed; "c" is an
        // array outlier below the size threshold.
        report.rows = {row("a", 1500), row("b", 4000), row("b", 4000), row("c", 800),
                       row("d", 2500)};
        const auto rows = b.rows(report);
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows[0].shard, QStringLiteral("ap"));
        QCOMPARE(rows[0].host, QStringLiteral("rs-ap/ap1:27018"));
        QCOMPARE(rows[0].outlierDocuments, 1u);
        QCOMPARE(rows[0].outlierBytes, 1500u);
        QCOMPARE(rows[0].bytesOverThreshold, 500u);
        QCOMPARE(rows[1].chunks, 2);
        QCOMPARE(rows[1].jumboChunks, 1);
        QCOMPARE(rows[1].outlierDocuments, 2u);
        QCOMPARE(rows[1].outlierBytes, 4800u);
        QCOMPARE(rows[1].bytesOverThreshold, 3000u);
        QCOMPARE(rows[2].outlierDocuments, 0u);
        QCOMPARE(rows[3].shard, QStringLiteral("(not placed)"));
        QCOMPARE(rows[3].outlierDocuments, 1u);
        QCOMPARE(rows[3].bytesOverThreshold, 1500u);
        b.shardOf["d"] = 2;
        QCOMPARE(b.rows(report).size(), std::size_t(3)); // no "(not placed)" row when all are
    }
};

QTEST_APPLESS_MAIN(TestShardKey)
#include "tst_shardkey.moc"
