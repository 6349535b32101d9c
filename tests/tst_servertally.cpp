#include "BsonFixtures.h"
#include "CliRunner.h"
#include "FlatShapes.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "MeasureRuns.h"
#include "MeasureShapes.h"
#include "ScanFixtures.h"
#include "TallyReshapes.h"
#include "Toxiproxy.h"
#include "explore/AnalysisSession.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <bson/bson.h>

#include <atomic>
#include <thread>

#include <cstdint>
#include <memory>
#include <string>

// `--measure cluster` counts in the cluster (issue 54): the server groups the documents by their
// measurement, and only the tallies, the documents the tails may keep and those read whole
// cross the link (ServerTally). Proven through a real proxy (toxiproxy, 10 ms a round trip):
// every report equals the per-document measurement's (`--measure server`), on the demo's feeds
// and books, the awkward shapes (an object _id among them: read whole), a filter and a collection
// whose record ids have gaps (positions counted by the server); and the bytes the server sends do
// not grow with the collection: at N and 4N documents of the same shapes they stay within a quarter
// of each other, where the per-document measurement's grow fourfold. Where the tallies decline
// (keys used as data in arrays' objects, a clustered collection), --measure cluster says so in
// one line and auto reads every document here, into --measure client's reports. The value at `path`
// (dot notation) in a command's reply; false where there is none. The iterator points into `reply`,
// which must outlive it.
bool replyAt(const QByteArray &reply, const char *path, bson_iter_t *at)
{
    bson_t doc;
    bson_iter_t it;
    return bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(reply.constData()),
                            std::size_t(reply.size())) &&
           bson_iter_init(&it, &doc) && bson_iter_find_descendant(&it, path, at);
}

class TestServerTally : public QObject, public fixtures::MeasureRuns
{
    Q_OBJECT

public:
    TestServerTally() : fixtures::MeasureRuns(QStringLiteral("oe_servertally")) {}

private:
    Toxiproxy m_proxy;
    QString m_far; // the proxy's URI

    // `analyze --full --measure cluster` through the proxy, counted in the cluster (or, with
    // `perDocument`, `--measure server`: one measurement per document): the report directory.
    QString measure(const QString &collection, const QString &name, const QStringList &extra,
                    bool perDocument, const QString &uri = {},
                    const QString &otherwise = QStringLiteral("server"))
    {
        QStringList args{QStringLiteral("--measure"),
                         perDocument ? otherwise : QStringLiteral("cluster")};
        if (!extra.contains(QLatin1String("--limit")))
            args << QStringLiteral("--full");
        const QString dir = analyze(collection, name, args + extra, uri.isEmpty() ? m_far : uri);
        if (dir.isEmpty())
            return {};
        const bool counted = m_lastErr.contains(QLatin1String("counted in the cluster"));
        if (counted == perDocument) {
            qWarning("%s", qPrintable(m_lastErr));
            return {};
        }
        return dir;
    }

    // The bytes of the server's replies to the operations of `app` (an appname), from the
    // profiler (each operation's responseLength): other tests' traffic on the same server is
    // not counted. -1 when unreadable.
    std::int64_t repliedTo(const QString &app) const
    {
        QByteArray reply;
        QString error;
        const QString sum =
            QStringLiteral("{\"aggregate\": \"system.profile\", \"cursor\": {}, \"pipeline\": "
                           "[{\"$match\": {\"appName\": \"%1\"}}, {\"$group\": {\"_id\": null, "
                           "\"b\": {\"$sum\": \"$responseLength\"}}}]}")
                .arg(app);
        if (!fixtures::command(m_uri, kDatabase, sum.toUtf8(), &error, &reply))
            return -1;
        bson_iter_t at;
        return replyAt(reply, "cursor.firstBatch.0.b", &at) ? bson_iter_as_int64(&at) : -1;
    }

    // The proxy's URI with an appname, so the profiler tells this run's operations apart.
    QString farAs(const QString &app) const { return m_far + QStringLiteral("&appname=") + app; }

    // `count` documents of five shapes (a tags array of 1 to 5 strings, a note of 3 characters a
    // tag: the largest documents have the longest arrays) and three outliers (5,000, 6,000 and
    // 7,000 tags), as a dump. Past the tails' places (16,384) what they keep does not grow.
    QString shapesDump(int count)
    {
        const QString path = m_dir.filePath(QStringLiteral("shapes-%1.bson").arg(count));
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly))
            return {};
        for (int i = 0; i < count; ++i) {
            bson_t *doc = bson_new();
            BSON_APPEND_INT32(doc, "_id", i);
            bson_t tags;
            BSON_APPEND_ARRAY_BEGIN(doc, "tags", &tags);
            const int n = i % 997 == 0 && i / 997 < 3 ? 5000 + 1000 * (i / 997) : 1 + i % 5;
            for (int t = 0; t < n; ++t)
                BSON_APPEND_UTF8(&tags, std::to_string(t).c_str(), "tag");
            bson_append_array_end(doc, &tags);
            BSON_APPEND_UTF8(doc, "note", std::string(std::size_t(3 * (1 + i % 5)), 'x').c_str());
            out.write(reinterpret_cast<const char *>(bson_get_data(doc)), qint64(doc->len));
            bson_destroy(doc);
        }
        return out.error() == QFile::NoError ? path : QString();
    }

    // How many of the server's operations carry an Outlier Explorer comment (the tallies'
    // passes); -1 when unreadable.
    // The run's operations on the server; with `runningFor`, only those that have run at least
    // that many milliseconds (a long pass, not a short read between two).
    // (`seen`: what they are, each op's first command field and its pipeline's first stages.)
    std::int64_t talliesRunning(int runningFor = 0, QByteArray *seen = nullptr) const
    {
        QByteArray reply;
        QString error;
        const QByteArray command =
            "{\"aggregate\": 1, \"cursor\": {}, \"pipeline\": [{\"$currentOp\": {}}, "
            "{\"$match\": {\"command.comment\": {\"$regex\": \"^outlier-explorer \"}, "
            "\"microsecs_running\": {\"$gte\": " +
            QByteArray::number(qint64(runningFor) * 1000) +
            "}}}, {\"$project\": {\"_id\": 0, \"op\": 1, \"microsecs_running\": 1, "
            "\"stages\": {\"$slice\": [{\"$map\": {\"input\": {\"$ifNull\": "
            "[\"$command.pipeline\", []]}, \"in\": {\"$objectToArray\": \"$$this\"}}}, 5]}}}]}";
        if (!fixtures::command(m_uri, QStringLiteral("admin"), command, &error, &reply))
            return -1;
        bson_iter_t at;
        if (!replyAt(reply, "cursor.firstBatch", &at) || !BSON_ITER_HOLDS_ARRAY(&at))
            return -1;
        bson_iter_t ops;
        std::int64_t n = 0;
        if (bson_iter_recurse(&at, &ops))
            while (bson_iter_next(&ops)) {
                ++n;
                std::uint32_t length = 0;
                const std::uint8_t *data = nullptr;
                bson_t op;
                if (seen && BSON_ITER_HOLDS_DOCUMENT(&ops)) {
                    bson_iter_document(&ops, &length, &data);
                    if (bson_init_static(&op, data, length)) {
                        char *json = bson_as_relaxed_extended_json(&op, nullptr);
                        *seen += QByteArray(json).left(400) + "\n";
                        bson_free(json);
                    }
                }
            }
        return n;
    }

    // Auto through the proxy on `collection`, which the tallies decline (`why`): every document
    // read here, the first line saying why, never a partial analysis, and the reports
    // --measure client gives through the same link.
    void autoReadsHereAsClient(const QString &collection, const QString &why)
    {
        const QString automatic = analyze(collection, collection + QStringLiteral("-auto"),
                                          {QStringLiteral("--full")}, m_far);
        QVERIFY(!automatic.isEmpty());
        QVERIFY2(m_lastErr.startsWith(QStringLiteral("measured client-side: every field of every "
                                                     "document (not counted in the cluster: ") +
                                      why) &&
                     !m_lastErr.contains(QLatin1String("partial")),
                 qPrintable(m_lastErr));
        const QString client = analyze(
            collection, collection + QStringLiteral("-client"),
            {QStringLiteral("--full"), QStringLiteral("--measure"), QStringLiteral("client")},
            m_far);
        QVERIFY(!client.isEmpty());
        compareReports(client, automatic, true);
    }

    // Every report byte for byte; with `timed`, but summary.csv's seconds (a walk here and a
    // count in the cluster take their own time). schema_versions.csv's last column is each
    // version's history, every run's share so far: the later run has one more.
    void compareReports(const QString &expectedDir, const QString &dir, bool timed = false)
    {
        auto a = fixtures::reportFiles(expectedDir);
        auto b = fixtures::reportFiles(dir);
        QVERIFY(a.size() >= 9);
        QCOMPARE(b.size(), a.size());
        const QRegularExpression seconds(QStringLiteral("\\nseconds,[0-9.]+\r\n"));
        for (auto &[name, bytes] : a) {
            QByteArray other = b.at(name);
            if (timed && name == QLatin1String("summary.csv")) {
                bytes = QString::fromUtf8(bytes).remove(seconds).toUtf8();
                other = QString::fromUtf8(other).remove(seconds).toUtf8();
            }
            if (name == QLatin1String("schema_versions.csv")) {
                const QRegularExpression history(QStringLiteral(",[^,\n]*(?=\r\n)"));
                bytes = QString::fromUtf8(bytes).remove(history).toUtf8();
                other = QString::fromUtf8(other).remove(history).toUtf8();
            }
            QVERIFY2(other == bytes, qPrintable(dir + QLatin1Char('/') + name));
        }
    }

private slots:
    void initTestCase()
    {
        const QString started = start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
        if (!m_server.isMongod())
            QSKIP("mongod only: the tallies need $bsonSize and $setWindowFields");
        import(QStringLiteral("activity_feeds"),
               m_dir.filePath(QStringLiteral("activity_feeds.bson")));
        import(QStringLiteral("feeds_gaps"), m_dir.filePath(QStringLiteral("activity_feeds.bson")));
        import(QStringLiteral("feeds_nested"),
               m_dir.filePath(QStringLiteral("activity_feeds.bson")));
        import(QStringLiteral("book_sales"), m_dir.filePath(QStringLiteral("book_sales.bson")));
        import(QStringLiteral("books_gaps"), m_dir.filePath(QStringLiteral("book_sales.bson")));
        import(QStringLiteral("catalogue"),
               m_dir.filePath(QStringLiteral("product_catalogue.bson")));
        const QString flat = m_dir.filePath(QStringLiteral("flat.bson"));
        QVERIFY(fixtures::writeFile(flat, fixtures::flatShapesDump(4000)));
        import(QStringLiteral("flat"), flat);
        import(QStringLiteral("flat_gaps"), flat);
        import(QStringLiteral("flat_named"), flat);
        import(QStringLiteral("flat_mixed"), flat);
        const QString posts = m_dir.filePath(QStringLiteral("viral_posts.bson"));
        import(QStringLiteral("posts"), posts);
        import(QStringLiteral("posts_mixed"), posts);
        const QString profiles = m_dir.filePath(QStringLiteral("customer_profiles.bson"));
        import(QStringLiteral("profiles"), profiles);
        import(QStringLiteral("profiles_mixed"), profiles);
        const QString awkward = m_dir.filePath(QStringLiteral("awkward.bson"));
        QVERIFY(fixtures::writeFile(awkward, fixtures::awkwardDump(false)));
        import(QStringLiteral("awkward"), awkward);
        QString error = fixtures::reshapeTallyCollections(m_uri, kDatabase);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(m_proxy.start(m_server.value(QStringLiteral("OE_TEST_HOSTPORT")), &error),
                 qPrintable(error));
        QVERIFY2(m_proxy.addToxic(QStringLiteral("far"), QStringLiteral("latency"),
                                  QStringLiteral("downstream"), QStringLiteral("{\"latency\": 10}"),
                                  &error),
                 qPrintable(error));
        m_far = QStringLiteral("mongodb://%1/?directConnection=true").arg(m_proxy.listen());
    }

    void equalsTheMeasurementPerDocument_data()
    {
        QTest::addColumn<QString>("collection");
        QTest::addColumn<QStringList>("extra");
        // (Shapes the tallies do not count: objects in arrays' elements, unsized types.)
        QTest::newRow("feeds") << QStringLiteral("feeds_nested") << QStringList();
        QTest::newRow("awkward") << QStringLiteral("awkward") << QStringList();
    }

    void equalsTheMeasurementPerDocument()
    {
        QFETCH(QString, collection);
        QFETCH(QStringList, extra);
        const QString row = QString::fromLatin1(QTest::currentDataTag());
        const QString tallied = measure(collection, row + QStringLiteral("-tallied"), extra, false);
        QVERIFY2(!tallied.isEmpty(), qPrintable(m_lastErr));
        QVERIFY2(m_lastErr.contains(QLatin1String("the shape is not counted in the cluster")),
                 qPrintable(m_lastErr));
        const QString each = measure(collection, row + QStringLiteral("-each"), extra, true);
        QVERIFY2(!each.isEmpty(), qPrintable(m_lastErr));
        compareReports(each, tallied);
    }

    // Where the shape plan holds (ShapePlan), the whole analysis is counted in the cluster:
    // every report equals a walk of every document here (--measure client), examples, tails
    // and shape outliers included; the irregular documents (a field, a type the discovery
    // sample missed, a big scalar) read whole.
    void countsTheShapeAsAWalk_data()
    {
        QTest::addColumn<QString>("collection");
        QTest::addColumn<QStringList>("extra");
        const QStringList filter{QStringLiteral("--filter"),
                                 QStringLiteral("{\"year\": {\"$gte\": 2000}}")};
        QTest::newRow("books") << QStringLiteral("book_sales") << QStringList();
        QTest::newRow("filter") << QStringLiteral("book_sales") << filter;
        QTest::newRow("gaps") << QStringLiteral("books_gaps") << QStringList();
        QTest::newRow("catalogue") << QStringLiteral("catalogue") << QStringList();
        QTest::newRow("flat") << QStringLiteral("flat") << QStringList();
        QTest::newRow("flat gaps") << QStringLiteral("flat_gaps") << QStringList();
        QTest::newRow("flat named") << QStringLiteral("flat_named") << QStringList();
        // By default the unseen pass and the tallies are cut in two _id ranges counted at once
        // (ServerTally::kDefaultRanges); one pass, and three ranges whose rows merge.
        QTest::newRow("flat one pass")
            << QStringLiteral("flat")
            << QStringList{QStringLiteral("--parallel"), QStringLiteral("1")};
        QTest::newRow("flat gaps three ranges")
            << QStringLiteral("flat_gaps")
            << QStringList{QStringLiteral("--parallel"), QStringLiteral("3")};
        QTest::newRow("flat mixed elements") << QStringLiteral("flat_mixed") << QStringList();
        // Arrays of objects: their elements' fields counted per type (the feeds' tags, arrays
        // in the elements, by the records' lengths).
        QTest::newRow("feeds") << QStringLiteral("activity_feeds") << QStringList();
        QTest::newRow("feeds gaps") << QStringLiteral("feeds_gaps") << QStringList();
        QTest::newRow("posts") << QStringLiteral("posts") << QStringList();
        QTest::newRow("posts mixed elements") << QStringLiteral("posts_mixed") << QStringList();
        // Schema versions: the tallies group by the version field's value.
        QTest::newRow("versions") << QStringLiteral("profiles") << QStringList();
        QTest::newRow("versions named mixed")
            << QStringLiteral("profiles_mixed")
            << QStringList{QStringLiteral("--version-field"), QStringLiteral("rev")};
        QTest::newRow("flat filter")
            << QStringLiteral("flat")
            << QStringList{QStringLiteral("--filter"),
                           QStringLiteral("{\"amount\": {\"$gte\": 300}}")};
    }

    void countsTheShapeAsAWalk()
    {
        QFETCH(QString, collection);
        QFETCH(QStringList, extra);
        const QString row = QString::fromLatin1(QTest::currentDataTag())
                                .replace(QLatin1Char(' '), QLatin1Char('-'));
        const QString tallied = measure(collection, row + QStringLiteral("-tallied"), extra, false);
        QVERIFY2(!tallied.isEmpty(), qPrintable(m_lastErr));
        QVERIFY2(m_lastErr.contains(QLatin1String("shape included")), qPrintable(m_lastErr));
        QVERIFY2(!m_lastErr.contains(QLatin1String("partial")), qPrintable(m_lastErr));
        if (row == QLatin1String("gaps"))
            QVERIFY(fixtures::reportFiles(tallied)
                        .at(QStringLiteral("summary.csv"))
                        .contains("\ndocuments,1334\r\n"));
        // The two big strings, the document of 300 more fields, the deep one: read whole.
        if (collection == QLatin1String("flat") && extra.isEmpty())
            QVERIFY2(m_lastErr.contains(
                         QRegularExpression(QStringLiteral("([4-9]|\\d\\d+) read whole"))),
                     qPrintable(m_lastErr));
        // The documents of types the discovery missed (TallyReshapes: nine of them; the discovery
        // sees one of each kind about once in 16,000 runs) found by those types.
        if (collection == QLatin1String("flat") && extra.isEmpty())
            QVERIFY2(m_lastErr.contains(QLatin1String("found by a type the tallies saw")),
                     qPrintable(m_lastErr));
        // Each feed a row of its own: the rows name every document, the tails take them all
        // (no candidates pass), their places counted here (with gaps in the record ids too).
        // The flat documents share rows: a candidates pass finds the tails'.
        if (collection.startsWith(QLatin1String("activity_feeds")) ||
            collection == QLatin1String("feeds_gaps"))
            QVERIFY2(m_lastErr.contains(QLatin1String("each document named by its row")),
                     qPrintable(m_lastErr));
        if (collection.startsWith(QLatin1String("flat")))
            QVERIFY2(m_lastErr.contains(QLatin1String("candidates for the tails")),
                     qPrintable(m_lastErr));
        // Two _id ranges at once by default, as many as --parallel asks, one with --parallel 1.
        const QString ranges = extra.contains(QLatin1String("--parallel"))
                                   ? extra.at(extra.indexOf(QLatin1String("--parallel")) + 1)
                                   : QStringLiteral("2");
        QVERIFY2(
            ranges == QLatin1String("1")
                ? !m_lastErr.contains(QLatin1String("counted at once"))
                : m_lastErr.contains(QStringLiteral("counted at once in %1 ranges").arg(ranges)),
            qPrintable(m_lastErr));
        // (Each version's documents and the fields they hold.)
        if (collection.startsWith(QLatin1String("profiles")))
            QVERIFY2(fixtures::reportFiles(tallied)
                             .at(QStringLiteral("schema_versions.csv"))
                             .count('\n') >= 4,
                     fixtures::reportFiles(tallied).at(QStringLiteral("schema_versions.csv")));
        if (collection == QLatin1String("flat_mixed"))
            QVERIFY(fixtures::reportFiles(tallied)
                        .at(QStringLiteral("shape_outliers.csv"))
                        .contains("\nmixed_element_types,codes,"));
        if (collection == QLatin1String("posts_mixed")) {
            const QByteArray fields =
                fixtures::reportFiles(tallied).at(QStringLiteral("fields.csv"));
            QVERIFY(fields.contains("\ncomments.likes,string|int,"));
            for (const char *gathered :
                 {"\ncomments.sig,", "\ncomments.mood,", "\ncomments.topics,"})
                QVERIFY2(fields.contains(gathered), gathered);
        }
        if (collection == QLatin1String("flat_named"))
            QVERIFY(fixtures::reportFiles(tallied)
                        .at(QStringLiteral("fields.csv"))
                        .contains("\nx4,string,"));
        const QString walked = measure(collection, row + QStringLiteral("-walked"), extra, true, {},
                                       QStringLiteral("client"));
        QVERIFY2(!walked.isEmpty(), qPrintable(m_lastErr));
        compareReports(walked, tallied, true);
    }

    // The objects of an array hold keys the discovery missed, read whole, past the count
    // where they may be keys used as data: the tallies do not count keys per object there, so
    // the run declines, in one line (--measure cluster: the per-document measurement instead;
    // auto: every document read here).
    void declinesKeysUsedAsDataInArrays()
    {
        QString error;
        fixtures::command(m_uri, kDatabase, "{\"drop\": \"keyed\"}", &error);
        QByteArray insert = "{\"insert\": \"keyed\", \"documents\": [";
        for (int i = 0; i < 3000; ++i) {
            QByteArray doc = "{\"_id\": " + QByteArray::number(i) +
                             ", \"r\": [{\"a\": 1, \"b\": \"x\"}, {\"a\": 2}";
            if (i % 40 == 7)
                doc += ", {\"k" + QByteArray::number(i) + "\": 1}";
            insert += (i ? "," : "") + doc + "]}";
        }
        insert += "]}";
        QVERIFY2(fixtures::command(m_uri, kDatabase, insert, &error), qPrintable(error));
        QVERIFY(!measure(QStringLiteral("keyed"), QStringLiteral("keyed"), {}, true, {},
                         QStringLiteral("cluster"))
                     .isEmpty());
        QVERIFY2(m_lastErr.contains(QLatin1String("the objects in r hold 77 keys, maybe used as "
                                                  "data")),
                 qPrintable(m_lastErr));
        // Auto chooses the cluster through the proxy (the discovery's 200 documents show a
        // handful of those keys), and reads every document here once the tallies decline.
        autoReadsHereAsClient(QStringLiteral("keyed"),
                              QStringLiteral("the objects in r hold 77 keys"));
    }

    // A clustered collection's record ids are its _ids, no integers: the positions cannot rest
    // on them, so the tallies decline in one line, and auto reads every document here, into
    // the reports --measure client gives.
    void declinesClusteredCollections()
    {
        QString error;
        fixtures::command(m_uri, kDatabase, "{\"drop\": \"clustered\"}", &error);
        QVERIFY2(fixtures::command(m_uri, kDatabase,
                                   "{\"create\": \"clustered\", \"clusteredIndex\": {\"key\": "
                                   "{\"_id\": 1}, \"unique\": true}}",
                                   &error),
                 qPrintable(error));
        QByteArray insert = "{\"insert\": \"clustered\", \"documents\": [";
        for (int i = 0; i < 2000; ++i)
            insert += QByteArray(i ? "," : "") + "{\"_id\": " + QByteArray::number(i) +
                      ", \"name\": \"" + QByteArray(1 + i % 9, 'n') + "\", \"tags\": [" +
                      QByteArray(i % 4 ? "1, 2" : "3") + "]}";
        insert += "]}";
        QVERIFY2(fixtures::command(m_uri, kDatabase, insert, &error), qPrintable(error));
        QVERIFY(!measure(QStringLiteral("clustered"), QStringLiteral("clustered"), {}, true, {},
                         QStringLiteral("cluster"))
                     .isEmpty());
        QVERIFY2(m_lastErr.contains(QLatin1String("record ids are no integers")),
                 qPrintable(m_lastErr));
        autoReadsHereAsClient(QStringLiteral("clustered"),
                              QStringLiteral("its record ids are no integers"));
    }

    // The reply is bounded by the answer (distinct measurements, the tails' places, the
    // documents read whole), not by the documents: N and 4N documents of the same shapes.
    void cancelKillsTheServersPass();

    void replyIsBoundedByTheAnswer()
    {
        constexpr int kN = 20000;
        std::int64_t tallied[2] = {0, 0}, each[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            const int count = kN * (k == 0 ? 1 : 4);
            const QString dump = shapesDump(count);
            QVERIFY(!dump.isEmpty());
            const QString collection = QStringLiteral("shapes");
            const CliRun r =
                cli(QStringList{QStringLiteral("import")} + target(collection) +
                    QStringList{QStringLiteral("--dump"), dump, QStringLiteral("--drop")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QString pid = QString::number(QCoreApplication::applicationPid());
            const QString tallyApp = QStringLiteral("oe-tally-%1-%2").arg(count).arg(pid);
            const QString eachApp = QStringLiteral("oe-each-%1-%2").arg(count).arg(pid);
            QString error;
            QVERIFY2(fixtures::startProfiling(m_uri, kDatabase, &error), qPrintable(error));
            const QString a = measure(collection, QStringLiteral("tallied-%1").arg(count), {},
                                      false, farAs(tallyApp));
            const QString b =
                measure(collection, QStringLiteral("each-%1").arg(count), {}, true, farAs(eachApp));
            QVERIFY2(fixtures::stopProfiling(m_uri, kDatabase, &error), qPrintable(error));
            QVERIFY2(!a.isEmpty() && !b.isEmpty(), qPrintable(m_lastErr));
            tallied[k] = repliedTo(tallyApp);
            each[k] = repliedTo(eachApp);
            QVERIFY(tallied[k] > 0 && each[k] > 0);
            // (The shape counted too: the whole analysis, as a walk of every document here.)
            const QString c = measure(collection, QStringLiteral("walked-%1").arg(count), {}, true,
                                      {}, QStringLiteral("client"));
            QVERIFY2(!c.isEmpty(), qPrintable(m_lastErr));
            compareReports(c, a, true);
            QVERIFY(fixtures::reportFiles(a)
                        .at(QStringLiteral("summary.csv"))
                        .contains(QByteArray(QByteArray("\ndocuments,") +
                                             QByteArray::number(count) + "\r\n")));
        }
        qInfo("bytes of the server's replies: counted in the cluster %lld at %d documents, %lld at "
              "%d; "
              "one measurement per document %lld and %lld",
              qlonglong(tallied[0]), kN, qlonglong(tallied[1]), 4 * kN, qlonglong(each[0]),
              qlonglong(each[1]));
        // The per-document measurement grows with the documents (the test can tell)...
        QVERIFY2(each[1] > 3 * each[0], "the per-document replies did not grow with N");
        // ...the tallies do not.
        QVERIFY2(tallied[1] * 4 < tallied[0] * 5, "the tallies' replies grew with N");
        QVERIFY(tallied[1] < each[1]);
    }
};

// A cancel ends the server's work, not only the client's wait (the window's Cancel: the
// analysis runs on in its worker, its connection open): a pass of the tallies answers only once
// it has read every document, so the run kills it (killOp, found by its comment); so does the
// $sample that cuts the _id ranges, which reads as long. Each document here costs the server
// 25 ms (a $function in the filter): a pass takes 5 s, and the run ends well before.
void TestServerTally::cancelKillsTheServersPass()
{
    QString error;
    fixtures::command(m_uri, kDatabase, "{\"drop\": \"slow\"}", &error); // (may not exist)
    QByteArray insert = "{\"insert\": \"slow\", \"documents\": [";
    for (int i = 0; i < 200; ++i)
        insert += (i ? "," : "") + QByteArray("{\"_id\": ") + QByteArray::number(i) +
                  ", \"tags\": [" + QByteArray(i % 4 ? "1, 2" : "1") + "]}";
    insert += "]}";
    QVERIFY2(fixtures::command(m_uri, kDatabase, insert, &error), qPrintable(error));
    oe::AnalysisRequest request;
    request.source.kind = oe::SourceRef::Kind::Collection;
    request.source.settings.uri = m_far;
    request.source.database = kDatabase;
    request.source.collection = QStringLiteral("slow");
    request.selection.mode = oe::DocumentSelection::Mode::Full;
    request.measure = oe::MeasureMode::Cluster;
    request.filter = QStringLiteral("{\"$expr\": {\"$function\": {\"body\": \"function() { "
                                    "sleep(25); return true; }\", \"args\": [], \"lang\": "
                                    "\"js\"}}}");
    std::atomic<bool> cancel{false};
    std::atomic<bool> done{false};
    oe::AnalysisResult result;
    std::thread worker([&] {
        result = oe::AnalysisSession::run(request, &cancel, {});
        done = true;
    });
    // Its first long operation on the server (after the discovery's read, 5 s of it): the
    // ranges' $sample, which the filter makes as slow as a pass.
    QElapsedTimer clock;
    clock.start();
    // One that has run 300 ms (a pass takes seconds here): a short read between two passes would
    // be gone before the cancel.
    bool seen = false;
    QByteArray ops;
    while (!seen && clock.elapsed() < 60000 && !done) {
        ops.clear();
        seen = talliesRunning(300, &ops) > 0;
        if (!seen)
            QTest::qWait(20);
    }
    qInfo("cancelled during: %s", ops.constData());
    cancel = true;
    clock.restart();
    worker.join();
    const qint64 ended = clock.elapsed();
    QVERIFY2(seen, "no pass of the tallies seen on the server");
    QVERIFY2(result.profile.status == oe::CollectionProfile::Status::Cancelled,
             qPrintable(result.profile.error.toString()));
    QVERIFY2(ended < 2500, qPrintable(QStringLiteral("the run ended %1 ms after the cancel of %2")
                                          .arg(ended)
                                          .arg(QString::fromUtf8(ops))));
    QCOMPARE(talliesRunning(), 0);
}

QTEST_GUILESS_MAIN(TestServerTally)
#include "tst_servertally.moc"
