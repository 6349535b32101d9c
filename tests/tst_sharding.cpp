#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "GroundTruth.h"
#include "LiveDocuments.h"
#include "ShardPlacement.h"
#include "SummaryCsv.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <mongoc/mongoc.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

namespace {

struct CsvTable
{
    QStringList header;
    QList<QStringList> rows;
    int column(const QString &name) const { return int(header.indexOf(name)); }
};

CsvTable readCsv(const QString &path)
{
    CsvTable table;
    QList<QStringList> all = csvtest::readFile(path);
    if (!all.isEmpty())
        table.header = all.takeFirst();
    table.rows = all;
    return table;
}

using fixtures::Chunk;
using fixtures::chunksOf;
using fixtures::chunksOn;
using fixtures::keyFields;
using fixtures::shardOf;

} // namespace

// Sharded collections, against a live server (a mongod standalone, whose config database is
// writable; or FerretDB) holding the metadata a mongos serves (config.shards,
// config.collections, config.chunks, written here as MongoDB 5.0+ writes them: chunks linked by
// the collection's uuid). FerretDB 1.x cannot store MinKey or MaxKey (it drops the connection),
// so on both servers the outer bounds of the first and last chunks are the lowest and highest
// values this data can hold (null, and `true`, which sorts after every string and number);
// tst_shardkey checks MinKey and MaxKey themselves. No mongos runs here, so what mongos itself does
// (routing, the balancer) is not exercised; what the product reads and writes is:
// - analyze places every outlier on the shard whose chunk holds its key (shards.csv: checked
//   against the test's own placement of the documents it reads back, by the chunks it wrote and
//   the thresholds the report states), and names the layout and its jumbo chunks (FerretDB 1.x
//   refuses field names with dots, so the refused key is {n: 1, comments: 1}, not one inside the
//   array; tst_shardkey checks those);
// - a parallel scan of a collection sharded on {_id: 1} cuts at the chunks' boundaries and
//   gives the single cursor's reports;
// - the split refuses a field of the shard key, and on a sharded collection splits, verifies
//   and rolls back with the key in its guarded filters, every document back byte for byte.
class TestSharding : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_uri;
    mongoc_client_t *m_client = nullptr;
    const QString kDatabase = QStringLiteral("oe_sharding");

    static CliRun cli(const QStringList &args) { return runCli(args, 300000); }
    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), kDatabase,
                QStringLiteral("--collection"), collection};
    }
    static QString region(int i)
    {
        static const char *const regions[] = {"ap", "eu", "us"};
        return QLatin1String(regions[i % 3]);
    }

    bool insert(const char *db, const char *collection, const QList<QByteArray> &docs)
    {
        mongoc_collection_t *coll = mongoc_client_get_collection(m_client, db, collection);
        bool ok = true;
        for (const QByteArray &bytes : docs) {
            bson_t doc;
            bson_error_t error;
            ok = ok &&
                 bson_init_static(&doc, reinterpret_cast<const uint8_t *>(bytes.constData()),
                                  std::size_t(bytes.size())) &&
                 mongoc_collection_insert_one(coll, &doc, nullptr, nullptr, &error);
            if (!ok)
                qWarning("insert into %s.%s: %s", db, collection, error.message);
        }
        mongoc_collection_destroy(coll);
        return ok;
    }
    void drop(const char *db, const char *collection)
    {
        mongoc_collection_t *coll = mongoc_client_get_collection(m_client, db, collection);
        mongoc_collection_drop(coll, nullptr);
        mongoc_collection_destroy(coll);
    }

    // 300 posts: _id i, region ap/eu/us by i % 3, n = i, and `comments` of 2..41 elements,
    // except every 23rd post (a viral one) with 300 to 600 comments of 40 bytes or so.
    QList<QByteArray> posts() const
    {
        QList<QByteArray> docs;
        for (int i = 0; i < 300; ++i) {
            const int comments = i % 23 == 5 ? 300 + i : 2 + i % 40;
            QString list;
            for (int k = 0; k < comments; ++k)
                list += QStringLiteral("%1{\"user\": \"u%2\", \"text\": \"comment number %3\"}")
                            .arg(k ? QStringLiteral(",") : QString())
                            .arg(k % 17)
                            .arg(k);
            docs << fixtures::bson(QStringLiteral("{\"_id\": %1, \"region\": \"%2\", \"n\": %1, "
                                                  "\"comments\": [%3]}")
                                       .arg(i)
                                       .arg(region(i), list)
                                       .toUtf8()
                                       .constData());
        }
        return docs;
    }

    // config.* for `collection` sharded on `key` (extended JSON), with `chunks` (JSON array of
    // {min, max, shard[, jumbo]}); uuid links chunks as MongoDB 5.0+ does.
    bool seedLayout(const QString &collection, const QString &key, const QString &chunks,
                    int uuidByte)
    {
        const QString uuid =
            QStringLiteral("{\"$binary\": {\"base64\": \"%1\", \"subType\": \"04\"}}")
                .arg(QString::fromLatin1(QByteArray(16, char(uuidByte)).toBase64()));
        if (!insert("config", "collections",
                    {fixtures::bson(QStringLiteral("{\"_id\": \"%1.%2\", \"key\": %3, \"uuid\": "
                                                   "%4, \"unique\": false}")
                                        .arg(kDatabase, collection, key, uuid)
                                        .toUtf8()
                                        .constData())}))
            return false;
        const QByteArray array =
            fixtures::bson(QStringLiteral("{\"c\": %1}").arg(chunks).toUtf8().constData());
        bson_t doc, chunk;
        bson_iter_t it, inner;
        bson_init_static(&doc, reinterpret_cast<const uint8_t *>(array.constData()),
                         std::size_t(array.size()));
        bson_iter_init_find(&it, &doc, "c");
        bson_iter_recurse(&it, &inner);
        QList<QByteArray> docs;
        int n = 0;
        while (bson_iter_next(&inner)) {
            uint32_t len = 0;
            const uint8_t *data = nullptr;
            bson_iter_document(&inner, &len, &data);
            bson_init_static(&chunk, data, len);
            bson_t out = BSON_INITIALIZER;
            const QByteArray chunkId = QStringLiteral("%1-%2").arg(collection).arg(n).toUtf8();
            ++n;
            BSON_APPEND_UTF8(&out, "_id", chunkId.constData());
            const QByteArray uuidBytes(16, char(uuidByte));
            BSON_APPEND_BINARY(&out, "uuid", BSON_SUBTYPE_UUID,
                               reinterpret_cast<const uint8_t *>(uuidBytes.constData()), 16);
            bson_concat(&out, &chunk);
            docs << QByteArray(reinterpret_cast<const char *>(bson_get_data(&out)),
                               qsizetype(out.len));
            bson_destroy(&out);
        }
        return insert("config", "chunks", docs);
    }

    // config.shards as the test writes it: each shard's _id and host.
    static QList<std::pair<QString, QString>> shards()
    {
        return {{QStringLiteral("shard-ap"), QStringLiteral("rs-ap/ap1:27018,ap2:27018")},
                {QStringLiteral("shard-eu"), QStringLiteral("rs-eu/eu1:27018,eu2:27018")},
                {QStringLiteral("shard-us"), QStringLiteral("rs-us/us1:27018,us2:27018")}};
    }
    // A layout the test writes (seedLayout): the collection, its shard key pattern and its
    // chunks (a JSON array of {min, max, shard[, jumbo]}).
    struct Layout
    {
        QString collection, key, chunks;
    };
    static QList<Layout> layouts()
    {
        return {{QStringLiteral("posts"), QStringLiteral(R"({"region": 1, "n": 1})"),
                 QStringLiteral(R"([
            {"min": {"region": null, "n": null}, "max": {"region": "eu", "n": null},
             "shard": "shard-ap"},
            {"min": {"region": "us", "n": null}, "max": {"region": true, "n": true},
             "shard": "shard-us"},
            {"min": {"region": "eu", "n": null}, "max": {"region": "eu", "n": 150},
             "shard": "shard-eu"},
            {"min": {"region": "eu", "n": 150}, "max": {"region": "us", "n": null},
             "shard": "shard-eu", "jumbo": true}])")},
                {QStringLiteral("by_comments"), QStringLiteral(R"({"n": 1, "comments": 1})"),
                 QStringLiteral(R"([
            {"min": {"n": null, "comments": null}, "max": {"n": true, "comments": true},
             "shard": "shard-eu"}])")},
                {QStringLiteral("by_id"), QStringLiteral(R"({"_id": 1})"), QStringLiteral(R"([
            {"min": {"_id": null}, "max": {"_id": 100}, "shard": "shard-ap"},
            {"min": {"_id": 100}, "max": {"_id": 200}, "shard": "shard-eu"},
            {"min": {"_id": 200}, "max": {"_id": true}, "shard": "shard-us"}])")}};
    }
    static Layout layoutOf(const QString &collection)
    {
        for (const Layout &layout : layouts())
            if (layout.collection == collection)
                return layout;
        return {};
    }

    // What shards.csv states of one shard, as the test computes it.
    struct ShardTruth
    {
        std::uint64_t docs = 0, bytes = 0, over = 0;
    };
    // The outliers of `collection` by shard, found by the test: the documents (read back, their
    // sizes as stored) larger than `sizeThreshold` or with a top-level array longer than
    // `arrayThreshold`, each on the shard of the chunk it wrote that holds the document's key
    // (an empty shard name: no chunk does).
    std::map<QString, ShardTruth> outliersByShard(const QString &collection,
                                                  std::uint64_t sizeThreshold,
                                                  std::uint64_t arrayThreshold) const
    {
        const Layout layout = layoutOf(collection);
        const QList<Chunk> chunks = chunksOf(layout.chunks);
        const QStringList fields = keyFields(layout.key);
        std::map<QString, ShardTruth> byShard;
        for (const auto &[id, doc] : fixtures::readCollection(m_uri, kDatabase, collection)) {
            const std::uint64_t size = std::uint64_t(doc.size());
            if (size <= sizeThreshold && fixtures::longestTopLevelArray(doc) <= arrayThreshold)
                continue;
            ShardTruth &shard = byShard[shardOf(doc, fields, chunks)];
            ++shard.docs;
            shard.bytes += size;
            shard.over += size > sizeThreshold ? size - sizeThreshold : 0;
        }
        return byShard;
    }

    QString analyze(const QString &collection, const QString &name, const QStringList &extra,
                    QString *err)
    {
        const QString out = m_dir.filePath(name);
        const CliRun r =
            cli(QStringList{QStringLiteral("analyze")} + target(collection) +
                QStringList{QStringLiteral("--full"), QStringLiteral("--out"), out} + extra);
        *err = r.err;
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.err));
        return r.exitCode == 0 ? out : QString();
    }

private slots:
    void initTestCase()
    {
        m_uri = fixtures::liveUri();
        QVERIFY(!m_uri.isEmpty());
        QVERIFY(m_dir.isValid());
        mongoc_init();
        m_client = mongoc_client_new(m_uri.toUtf8().constData());
        QVERIFY(m_client);
        for (const char *c : {"shards", "collections", "chunks"})
            drop("config", c);
        QList<QByteArray> shardDocs;
        for (const auto &[id, host] : shards())
            shardDocs << fixtures::bson(QStringLiteral(R"({"_id": "%1", "host": "%2", "state": 1})")
                                            .arg(id, host)
                                            .toUtf8()
                                            .constData());
        QVERIFY(insert("config", "shards", shardDocs));
        int uuidByte = 0;
        for (const Layout &layout : layouts()) {
            const QByteArray collection = layout.collection.toUtf8();
            drop(kDatabase.toUtf8().constData(), collection.constData());
            QVERIFY(insert(kDatabase.toUtf8().constData(), collection.constData(), posts()));
            QVERIFY(seedLayout(layout.collection, layout.key, layout.chunks, ++uuidByte));
        }
    }

    void cleanupTestCase()
    {
        if (m_client) {
            for (const char *c : {"shards", "collections", "chunks"})
                drop("config", c);
            mongoc_client_destroy(m_client);
        }
        mongoc_cleanup();
    }

    // Every outlier is counted once, on the shard whose chunk holds its key: the expected
    // figures are the test's own, from the documents it reads back and the chunks it wrote,
    // under the thresholds the report states (the viral posts, i % 23 == 5, or every document).
    void analyzeBreaksOutliersDownByShard_data()
    {
        QTest::addColumn<QString>("collection");
        QTest::addColumn<QString>("sizeThreshold");
        QTest::addColumn<QStringList>("more");
        QTest::addColumn<int>("outliers"); // the documents flagged, as the data was written
        const QStringList arrays{QStringLiteral("--array-threshold"), QStringLiteral("200")};
        QTest::newRow("posts, viral") << "posts"
                                      << "12000" << arrays << 13;
        QTest::newRow("posts, all") << "posts"
                                    << "1" << QStringList() << 300;
        QTest::newRow("by _id, all") << "by_id"
                                     << "1" << QStringList() << 300;
        // Measured on the server (issue 36): the breakdown works from the _ids it returns.
        const QStringList server{QStringLiteral("--measure"), QStringLiteral("server")};
        QTest::newRow("posts, viral, measured on the server") << "posts"
                                                              << "12000" << arrays + server << 13;
        QTest::newRow("by _id, all, measured on the server") << "by_id"
                                                             << "1" << server << 300;
    }
    void analyzeBreaksOutliersDownByShard()
    {
        QFETCH(QString, collection);
        QFETCH(QString, sizeThreshold);
        QFETCH(QStringList, more);
        QFETCH(int, outliers);
        QString err;
        const QStringList thresholds{QStringLiteral("--method"), QStringLiteral("absolute"),
                                     QStringLiteral("--size-threshold"), sizeThreshold};
        const QString out = analyze(
            collection, QStringLiteral("%1-%2-%3").arg(collection, sizeThreshold).arg(outliers),
            thresholds + more, &err);
        QVERIFY(!out.isEmpty());
        const Layout layout = layoutOf(collection);
        const QList<Chunk> chunks = chunksOf(layout.chunks);
        const int jumbo = int(
            std::count_if(chunks.begin(), chunks.end(), [](const Chunk &c) { return c.jumbo; }));
        const QString described =
            QStringLiteral("sharded on {%1: 1}: %2 shard(s), %3 chunk(s)%4")
                .arg(keyFields(layout.key).join(QStringLiteral(": 1, ")))
                .arg(shards().size())
                .arg(chunks.size())
                .arg(jumbo ? QStringLiteral(" (%1 jumbo)").arg(jumbo) : QString());
        QVERIFY2(err.contains(described), qPrintable(described + QStringLiteral("\n") + err));

        const auto summary = fixtures::SummaryCsv::read(out);
        QCOMPARE(summary.value(QStringLiteral("size_threshold")), sizeThreshold);
        bool numeric = false;
        const std::uint64_t arrayThreshold =
            summary.value(QStringLiteral("array_threshold")).toULongLong(&numeric);
        QVERIFY2(numeric, qPrintable(summary.value(QStringLiteral("array_threshold"))));
        std::map<QString, ShardTruth> expected =
            outliersByShard(collection, sizeThreshold.toULongLong(), arrayThreshold);
        QVERIFY2(!expected.count(QString()), "a document no chunk the test wrote holds");
        std::uint64_t flagged = 0;
        for (const auto &[shard, truth] : expected)
            flagged += truth.docs;
        QCOMPARE(flagged, std::uint64_t(outliers));
        QCOMPARE(summary.value(QStringLiteral("outlier_documents")), QString::number(flagged));

        QVERIFY(QFile::exists(out + QStringLiteral("/shards.csv")));
        const CsvTable table = readCsv(out + QStringLiteral("/shards.csv"));
        QCOMPARE(
            table.header,
            QStringList({QStringLiteral("shard"), QStringLiteral("host"), QStringLiteral("chunks"),
                         QStringLiteral("jumbo_chunks"), QStringLiteral("outlier_documents"),
                         QStringLiteral("outlier_bytes"), QStringLiteral("bytes_over_threshold")}));
        // One row per shard, in config.shards' order: no "(not placed)" row.
        const QList<std::pair<QString, QString>> shardList = shards();
        QCOMPARE(table.rows.size(), shardList.size());
        for (qsizetype s = 0; s < shardList.size(); ++s) {
            const auto &[id, host] = shardList.at(s);
            const ShardTruth truth = expected[id];
            QCOMPARE(table.rows.at(s),
                     QStringList({id, host, QString::number(chunksOn(chunks, id)),
                                  QString::number(chunksOn(chunks, id, true)),
                                  QString::number(truth.docs), QString::number(truth.bytes),
                                  QString::number(truth.over)}));
            QVERIFY2(truth.docs > 0, qPrintable(id)); // every shard holds outliers here
        }
    }

    void unshardedCollectionsHaveNoShardReport()
    {
        drop(kDatabase.toUtf8().constData(), "plain");
        QVERIFY(insert(kDatabase.toUtf8().constData(), "plain", posts().mid(0, 50)));
        QString err;
        const QString out = analyze(QStringLiteral("plain"), QStringLiteral("plain"), {}, &err);
        QVERIFY(!out.isEmpty());
        QVERIFY(!QFile::exists(out + QStringLiteral("/shards.csv")));
        QVERIFY2(!err.contains(QStringLiteral("sharded on")), qPrintable(err));
    }

    // {_id: 1} chunks at 100 and 200: three ranges cut there, the reports of one cursor.
    void parallelScanCutsAtChunkBoundaries()
    {
        QString err;
        const QString one = analyze(QStringLiteral("by_id"), QStringLiteral("by_id_1"), {}, &err);
        QVERIFY(!one.isEmpty());
        const QString three = analyze(QStringLiteral("by_id"), QStringLiteral("by_id_3"),
                                      {QStringLiteral("--parallel"), QStringLiteral("3")}, &err);
        QVERIFY(!three.isEmpty());
        QVERIFY2(err.contains(QStringLiteral("the shard chunks' boundaries")), qPrintable(err));
        for (const QString &name :
             {QStringLiteral("fields.csv"), QStringLiteral("outliers.csv"),
              QStringLiteral("size_histogram.csv"), QStringLiteral("shards.csv")}) {
            QFile a(one + QLatin1Char('/') + name), b(three + QLatin1Char('/') + name);
            QVERIFY2(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly), qPrintable(name));
            QCOMPARE(a.readAll(), b.readAll());
        }
    }

    void splitRefusesAFieldOfTheShardKey()
    {
        const auto before =
            fixtures::readCollection(m_uri, kDatabase, QStringLiteral("by_comments"));
        const CliRun r = cli(
            QStringList{QStringLiteral("split")} + target(QStringLiteral("by_comments")) +
            QStringList{QStringLiteral("--field"), QStringLiteral("comments"),
                        QStringLiteral("--keep"), QStringLiteral("20"), QStringLiteral("--yes")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
        QVERIFY2(r.err.contains(QStringLiteral("'comments' cannot be split: "
                                               "oe_sharding.by_comments is sharded on "
                                               "{n: 1, comments: 1}, and 'comments' is the "
                                               "shard key field 'comments'")),
                 qPrintable(r.err));
        QCOMPARE(fixtures::readCollection(m_uri, kDatabase, QStringLiteral("by_comments")), before);
        QVERIFY(fixtures::readCollection(m_uri, kDatabase, QStringLiteral("by_comments_overflow"))
                    .empty());
    }

    void splitVerifiesAndRollsBackOnAShardedCollection()
    {
        const auto before = fixtures::readCollection(m_uri, kDatabase, QStringLiteral("posts"));
        QCOMPARE(int(before.size()), 300);
        const QStringList field{QStringLiteral("--field"), QStringLiteral("comments")};
        const CliRun split =
            cli(QStringList{QStringLiteral("split")} + target(QStringLiteral("posts")) + field +
                QStringList{QStringLiteral("--keep"), QStringLiteral("50"),
                            QStringLiteral("--page-size"), QStringLiteral("100"),
                            QStringLiteral("--yes")});
        QVERIFY2(split.exitCode == 0, qPrintable(split.err));
        QVERIFY2(QString(split.out + split.err)
                     .contains(QStringLiteral("every guarded update names the shard key")),
                 qPrintable(split.out + split.err));
        const auto after = fixtures::readCollection(m_uri, kDatabase, QStringLiteral("posts"));
        int flagged = 0;
        for (const auto &[id, doc] : after)
            flagged += fixtures::fieldOf(doc, QStringLiteral("has_extras")).isEmpty() ? 0 : 1;
        QCOMPARE(flagged, 13);
        const CliRun verify =
            cli(QStringList{QStringLiteral("verify")} + target(QStringLiteral("posts")) + field);
        QVERIFY2(verify.exitCode == 0, qPrintable(verify.out + verify.err));
        const CliRun rollback =
            cli(QStringList{QStringLiteral("rollback")} + target(QStringLiteral("posts")) + field +
                QStringList{QStringLiteral("--yes")});
        QVERIFY2(rollback.exitCode == 0, qPrintable(rollback.err));
        QVERIFY(fixtures::readCollection(m_uri, kDatabase, QStringLiteral("posts")) == before);
    }
};

QTEST_GUILESS_MAIN(TestSharding)
#include "tst_sharding.moc"
