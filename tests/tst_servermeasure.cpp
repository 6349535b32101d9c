#include "BsonFixtures.h"
#include "CliRunner.h"
#include "GroundTruth.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "MeasureComparison.h"
#include "MeasureRuns.h"
#include "MeasureShapes.h"
#include "ReportTruth.h"
#include "ScanFixtures.h"
#include "Toxiproxy.h"

#include "explore/MeasureSetup.h"
#include "measure/MeasureProjection.h"
#include "mongo/LiveCollectionSource.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <bson/bson.h>

#include <csignal>
#include <map>
#include <set>

// Server-side measurement (`analyze --measure server`): the server returns each document's
// $bsonSize, _id and, for the array paths a discovery read learnt, each array's length, bytes
// and element types (and its elements' arrays' lengths); a document those figures do not
// explain is read whole. Every figure of sizes and arrays must be the client-side scan's, byte
// for byte (but the run's seconds), on collections of several shapes: books, activity feeds
// (arrays inside array elements, a 15.5 MiB document), viral posts, and a collection built to
// be awkward: an array path that is sometimes a string, an object, empty or missing, elements
// that are scalars or arrays, an array in a sub-document that is sometimes an array itself,
// `_id`s of fourteen BSON types, a path that 0.05 % of documents hold with a large array (at
// the top and inside array elements), and a 16 MiB document. The differences allowed are
// stated by the run: fields.csv leaves out the fields that hold no array (their presence, types
// and bytes are not measured on the server), and of the arrays inside another array's elements
// it gives the count and lengths only. The books are also held against the test's own reading
// of the documents (plain libbson). Keys the server's paths cannot spell (dots, a leading `$`)
// make the run measure client-side and say so. A resumed server-side scan ends with the
// uninterrupted scan's reports. Where auto measures, wire compression and FerretDB's refusal:
// tst_measurechoice.
class TestServerMeasure : public QObject, public fixtures::MeasureRuns
{
    Q_OBJECT

    void compareModes(const QString &collection, const QString &client, const QString &server)
    {
        const QString differs = fixtures::measureDifferences(client, server);
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
        // The test's own reading covers collections whose arrays are all top-level fields (it
        // holds every field: the client run's, which the server run's figures equal).
        if (collection == QLatin1String("book_sales")) {
            const QString truth =
                fixtures::reportDifferences(client, fixtures::truthOf(m_documents.at(collection)));
            QVERIFY2(truth.isEmpty(), qPrintable(truth));
        }
    }

public:
    TestServerMeasure() : fixtures::MeasureRuns(QStringLiteral("oe_servermeasure")) {}

private slots:
    void initTestCase()
    {
        const QString started = start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
        for (const char *name : {"book_sales", "activity_feeds", "viral_posts"})
            import(QLatin1String(name),
                   m_dir.filePath(QLatin1String(name) + QStringLiteral(".bson")));
        const QString awkward = m_dir.filePath(QStringLiteral("awkward.bson"));
        QVERIFY(fixtures::writeFile(awkward, fixtures::awkwardDump(false)));
        import(QStringLiteral("awkward"), awkward);
        const QString keys = m_dir.filePath(QStringLiteral("awkward_keys.bson"));
        QVERIFY(fixtures::writeFile(keys, fixtures::awkwardDump(true)));
        import(QStringLiteral("awkward_keys"), keys);
        const QString nested = m_dir.filePath(QStringLiteral("nested.bson"));
        QVERIFY(fixtures::writeFile(nested, fixtures::nestedDump()));
        import(QStringLiteral("nested"), nested);
        const QString restHeavy = m_dir.filePath(QStringLiteral("rest_heavy.bson"));
        QVERIFY(fixtures::writeFile(restHeavy, fixtures::restHeavyDump()));
        import(QStringLiteral("rest_heavy"), restHeavy);
        // 5,000 ordinary documents and, in one of them, a small array under a top-level name
        // the 200-document discovery sample almost surely does not see.
        QByteArray unseen = "{\"insert\": \"unseen\", \"documents\": [";
        for (int i = 0; i < 5000; ++i)
            unseen += (i ? "," : "") +
                      QStringLiteral("{\"_id\": %1, \"n\": %1, \"tags\": "
                                     "[\"a\", \"b\"]%2}")
                          .arg(i)
                          .arg(i == 2500 ? QStringLiteral(", \"late\": [1, 2]") : QString())
                          .toUtf8();
        unseen += "]}";
        QString error;
        QVERIFY2(fixtures::command(m_uri, kDatabase, unseen, &error), qPrintable(error));
        const QString big = m_dir.filePath(QStringLiteral("big.bson"));
        QVERIFY(fixtures::writeFile(big, fixtures::sixteenMebibyteDump()));
        import(QStringLiteral("big"), big);
    }

    void figuresEqualClientSide_data()
    {
        QTest::addColumn<QString>("collection");
        QTest::addColumn<QStringList>("options");
        const QStringList full{QStringLiteral("--full")};
        QTest::newRow("books") << "book_sales" << full;
        QTest::newRow("feeds: arrays in elements, 15.5 MiB") << "activity_feeds" << full;
        QTest::newRow("viral posts") << "viral_posts" << full;
        QTest::newRow("awkward shapes") << "awkward" << full;
        QTest::newRow("awkward, first 700")
            << "awkward" << QStringList{QStringLiteral("--limit"), QStringLiteral("700")};
        QTest::newRow("awkward, filtered")
            << "awkward"
            << QStringList{QStringLiteral("--full"), QStringLiteral("--filter"),
                           QStringLiteral("{\"meta.by\": \"x\"}")};
        QTest::newRow("awkward, 3 _id ranges")
            << "awkward"
            << QStringList{QStringLiteral("--full"), QStringLiteral("--parallel"),
                           QStringLiteral("3")};
        QTest::newRow("a 16 MiB document") << "big" << full;
        QTest::newRow("an array two objects down") << "nested" << full;
        QTest::newRow("mostly not the array") << "rest_heavy" << full;
    }
    void figuresEqualClientSide()
    {
        QFETCH(QString, collection);
        QFETCH(QStringList, options);
        if (!m_server.isMongod())
            QSKIP("FerretDB has no $bsonSize: fallsBackWithoutBsonSize covers it");
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).remove(QLatin1Char(' '));
        // (With ranges, both runs number documents by _id rank: the same options on both sides.)
        const QString client =
            analyze(collection, tag + QStringLiteral("-client"),
                    options + QStringList{QStringLiteral("--measure"), QStringLiteral("client")});
        QVERIFY(!client.isEmpty());
        const QString server =
            analyze(collection, tag + QStringLiteral("-server"),
                    options + QStringList{QStringLiteral("--measure"), QStringLiteral("server")});
        QVERIFY(!server.isEmpty());
        // A partial analysis, named so in the first line.
        QVERIFY2(m_lastErr.startsWith(QLatin1String("partial analysis: measured on the server "
                                                    "($bsonSize)")),
                 qPrintable(m_lastErr));
        compareModes(collection, client, server);
    }

    // The large arrays under paths 0.05 % of the documents have (`rare` at the top, and
    // `activities.attachments` inside one element) are in the server run's reports as in the
    // client run's: same longest length, same document.
    // The server gives an array's bytes the same whether asked by wrapping the array
    // ($bsonSize({x: array})) or by removing it from the document ($unsetField, $setField on
    // the way): each planned path of every collection, alone in a plan, gets byte-identical
    // replies both ways, through every awkward shape (a path that is sometimes a string, an
    // object or missing, an object on the way that is sometimes an array, _ids of fourteen
    // types, a 16 MiB document).
    void bothWaysOfAskingForArrayBytesAgree()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB has no $bsonSize");
        int compared = 0;
        for (const auto &[collection, documents] : m_documents) {
            oe::SourceRef source;
            source.kind = oe::SourceRef::Kind::Collection;
            source.settings.uri = m_uri;
            source.database = kDatabase;
            source.collection = collection;
            oe::SourceError error;
            const auto setup =
                oe::MeasureSetup::decide(oe::MeasureMode::Server, source, {}, nullptr, &error);
            QVERIFY2(setup, qPrintable(error.message));
            if (!setup->plan)
                continue; // keys the server cannot spell: measured client-side
            // mongod 6.0 has $unsetField: a plan of one path whose arrays hold most of the
            // sampled bytes asks by removal; the others wrap.
            if (setup->plan->summaries.size() != 1 || collection == QLatin1String("rest_heavy"))
                QCOMPARE(setup->plan->arrayBytes, oe::MeasurePlan::ArrayBytes::Wrapped);
            if (collection == QLatin1String("activity_feeds") ||
                collection == QLatin1String("book_sales"))
                QCOMPARE(setup->plan->arrayBytes, oe::MeasurePlan::ArrayBytes::Removed);
            for (const oe::MeasurePlan::Summary &summary : setup->plan->summaries) {
                oe::MeasurePlan plan;
                plan.summaries = {summary};
                const QList<QByteArray> wrapped = fixtures::measuredBy(source, plan);
                plan.arrayBytes = oe::MeasurePlan::ArrayBytes::Removed;
                const QList<QByteArray> removed = fixtures::measuredBy(source, plan);
                QCOMPARE(wrapped.size(), documents.size());
                QVERIFY2(wrapped == removed, qPrintable(collection + QLatin1Char(' ') +
                                                        QString::fromStdString(summary.path())));
                qInfo("compared %s.%s", qPrintable(collection), summary.path().c_str());
                ++compared;
            }
        }
        QVERIFY2(compared >= 9, qPrintable(QString::number(compared)));
    }

    // One analysis, one connection: the probe, the discovery read and the scan share it (over a
    // slow link each new one costs a handshake and a session end). The profiler gives each
    // operation's logical session, and a libmongoc client lends its one pooled session to
    // operations that follow one another: three clients show three sessions (checked by hand
    // with the scope removed). The run's own appname tells its operations from those of other
    // tests sharing the server.
    void oneConnectionPerAnalysis()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB has no profiler");
        QString error;
        QVERIFY2(fixtures::startProfiling(m_uri, kDatabase, &error), qPrintable(error));
        const QString app =
            QStringLiteral("oe-one-connection-%1").arg(QCoreApplication::applicationPid());
        QString uri = m_uri;
        if (uri.contains(QLatin1Char('?')))
            uri += QLatin1Char('&');
        else
            uri += uri.endsWith(QLatin1Char('/')) ? QStringLiteral("?") : QStringLiteral("/?");
        uri += QStringLiteral("appname=") + app;
        const QString out = analyze(
            QStringLiteral("activity_feeds"), QStringLiteral("one-connection"),
            {QStringLiteral("--full"), QStringLiteral("--measure"), QStringLiteral("server")}, uri);
        QVERIFY2(fixtures::stopProfiling(m_uri, kDatabase, &error), qPrintable(error));
        QVERIFY(!out.isEmpty());
        QByteArray reply;
        const QString distinct =
            QStringLiteral("{\"distinct\": \"system.profile\", \"key\": "
                           "\"command.lsid.id\", \"query\": {\"appName\": \"%1\"}}")
                .arg(app);
        QVERIFY2(fixtures::command(m_uri, kDatabase, distinct.toUtf8(), &error, &reply),
                 qPrintable(error));
        // The discovery's aggregate, the scan's find and getMore: one session.
        QCOMPARE(fixtures::elementsOf(reply, QStringLiteral("values")).size(), 1);
        const QString coll = kDatabase + QStringLiteral(".activity_feeds");
        auto ran = [&](const QString &ns, const QString &command) {
            return fixtures::profiled(
                m_uri, kDatabase, ns,
                QStringLiteral("{\"appName\": \"%1\", \"command.%2\": {\"$exists\": true}}")
                    .arg(app, command));
        };
        // The scan's find, and the matcher's pass for documents with a top-level field the
        // discovery sample did not see (UnseenFieldFinder: their _ids only).
        QCOMPARE(ran(coll, QStringLiteral("find")), 2);
        QCOMPARE(ran(coll, QStringLiteral("filter.$and.0.$nor.0.$jsonSchema")), 1);
        // Round trips saved: the discovery read proves the operators (no probe aggregate on
        // mongod), and the scan asks neither the collection's size nor whether it exists again
        // (the discovery read saw documents).
        QCOMPARE(ran(coll, QStringLiteral("aggregate")), 1);
        QCOMPARE(ran(coll, QStringLiteral("pipeline.1.$project.c.$bsonSize")), 1);
        QCOMPARE(ran(kDatabase + QStringLiteral(".outlier_explorer_capability_probe"),
                     QStringLiteral("aggregate")),
                 0);
        // (listCollections, which the scan no longer sends either, is not profiled.)
        QCOMPARE(ran(coll, QStringLiteral("collStats")), 1);
        // The full scan (a find) checks elements by its projection, not per element.
        QCOMPARE(ran(coll, QStringLiteral("projection.activities.$elemMatch")), 1);
    }

    void rarePathsAreFound()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only");
        const QStringList full{QStringLiteral("--full"), QStringLiteral("--measure")};
        const QString client = analyze(QStringLiteral("awkward"), QStringLiteral("rare-client"),
                                       full + QStringList{QStringLiteral("client")});
        const QString server = analyze(QStringLiteral("awkward"), QStringLiteral("rare-server"),
                                       full + QStringList{QStringLiteral("server")});
        QVERIFY(!client.isEmpty() && !server.isEmpty());
        const auto rows = fixtures::fieldRows(server);
        for (const auto &[path, longest] :
             {std::pair{QStringLiteral("rare"), 5000},
              std::pair{QStringLiteral("activities.attachments"), 3000}}) {
            QVERIFY2(rows.count(path), qPrintable(path + QStringLiteral(" not found")));
            QCOMPARE(fixtures::column(rows.at(path).first(), 8), longest); // len_max
            // The columns the server measures (fields.csv's shape columns are the walk's).
            QCOMPARE(rows.at(path).first().section(QLatin1Char(','), 0, 17),
                     fixtures::fieldRows(client).at(path).first().section(QLatin1Char(','), 0, 17));
        }
        QCOMPARE(fixtures::reportFiles(server).at(QStringLiteral("top_arrays.csv")),
                 fixtures::reportFiles(client).at(QStringLiteral("top_arrays.csv")));
    }

    // A small array under a top-level name the discovery sample did not see, in a document of
    // an ordinary size (its figures explain it): the server's matcher finds the document
    // (UnseenFieldFinder), it is read whole, and the array is in the reports as in a client-side
    // scan. Before, only a document heavier than the plan expects was read whole, and `late`
    // was missing from the server run's reports.
    void unseenTopLevelFieldsAreReadWhole()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only");
        const QStringList full{QStringLiteral("--full"), QStringLiteral("--measure")};
        const QString client = analyze(QStringLiteral("unseen"), QStringLiteral("unseen-client"),
                                       full + QStringList{QStringLiteral("client")});
        const QString server = analyze(QStringLiteral("unseen"), QStringLiteral("unseen-server"),
                                       full + QStringList{QStringLiteral("server")});
        QVERIFY(!client.isEmpty() && !server.isEmpty());
        // The note, unless the sample happened to see the document (then the plan knows it).
        const bool sampled = !m_lastErr.contains(QLatin1String("1 document holds a top-level "
                                                               "field the discovery sample did "
                                                               "not see: read whole"));
        if (sampled)
            qWarning("the discovery sample saw `late`: the matcher had nothing to find");
        const auto rows = fixtures::fieldRows(server);
        QVERIFY2(rows.count(QStringLiteral("late")), "late is missing from the server run");
        compareModes(QStringLiteral("unseen"), client, server);
        // The filter goes with the matcher's pass: none of the documents it keeps holds `late`.
        const QString filtered =
            analyze(QStringLiteral("unseen"), QStringLiteral("unseen-filtered"),
                    full + QStringList{QStringLiteral("server"), QStringLiteral("--filter"),
                                       QStringLiteral("{\"n\": {\"$lt\": 100}}")});
        QVERIFY(!filtered.isEmpty());
        QVERIFY2(!m_lastErr.contains(QLatin1String("discovery sample did not see")),
                 qPrintable(m_lastErr));
        QVERIFY(!fixtures::fieldRows(filtered).count(QStringLiteral("late")));
    }

    // Arrays under keys the server's paths cannot spell (a dot, a leading `$`): asked for the
    // server, the run measures client-side, names the paths in one line, and its reports are
    // the client run's.
    void keysTheServerCannotSpellAreMeasuredHere()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only");
        const QString server = analyze(
            QStringLiteral("awkward_keys"), QStringLiteral("keys-server"),
            {QStringLiteral("--full"), QStringLiteral("--measure"), QStringLiteral("server")});
        QVERIFY(!server.isEmpty());
        const QString line = m_lastErr.section(QLatin1Char('\n'), 0, 0);
        QVERIFY2(line.startsWith(QLatin1String("measured client-side: the server cannot measure "
                                               "the arrays at $dollar, a.b")),
                 qPrintable(line));
        const QString client = analyze(
            QStringLiteral("awkward_keys"), QStringLiteral("keys-client"),
            {QStringLiteral("--full"), QStringLiteral("--measure"), QStringLiteral("client")});
        QVERIFY(!client.isEmpty());
        const auto s = fixtures::reportFiles(server);
        for (const auto &[name, bytes] : fixtures::reportFiles(client))
            if (name != QLatin1String("summary.csv"))
                QVERIFY2(s.at(name) == bytes,
                         qPrintable(name + QStringLiteral(":\n") + QString::fromUtf8(s.at(name)) +
                                    QStringLiteral("\nagainst\n") + QString::fromUtf8(bytes)));
    }

    // A server-side range scan stopped (SIGINT) after it saved its state resumes with the
    // measurement it began with, into the reports of a scan that never stopped.
    void resumedServerScanGivesTheSameReports()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only");
        const QStringList scanArgs{QStringLiteral("--full"), QStringLiteral("--parallel"),
                                   QStringLiteral("2"),      QStringLiteral("--batch-size"),
                                   QStringLiteral("5"),      QStringLiteral("--checkpoint-ms"),
                                   QStringLiteral("0"),      QStringLiteral("--measure"),
                                   QStringLiteral("server")};
        const QString whole = analyze(QStringLiteral("awkward"), QStringLiteral("whole"), scanArgs);
        QVERIFY(!whole.isEmpty());
        const auto expected = fixtures::reportFiles(whole);
        const QString stateDir = m_dir.filePath(QStringLiteral("xdg/outlier-explorer/scans"));
        bool resumedOnce = false;
        for (int trial = 0; trial < 3 && !resumedOnce; ++trial) {
            const QString out = m_dir.filePath(QStringLiteral("stopped-%1").arg(trial));
            QProcess p;
            p.setProgram(qEnvironmentVariable("OE_CLI"));
            p.setArguments(
                QStringList{QStringLiteral("analyze")} + target(QStringLiteral("awkward")) +
                QStringList{QStringLiteral("--top"), QStringLiteral("500"), QStringLiteral("--out"),
                            out, QStringLiteral("--quiet"), QStringLiteral("--max-docs-per-sec"),
                            QStringLiteral("1000")} +
                scanArgs);
            p.start();
            QVERIFY(p.waitForStarted());
            if (fixtures::waitForScanProgress(p, stateDir) && p.state() == QProcess::Running)
                ::kill(pid_t(p.processId()), SIGINT);
            QVERIFY(p.state() == QProcess::NotRunning || p.waitForFinished(60000));
            if (p.exitCode() == 0)
                continue; // it finished first
            QCOMPARE(p.exitCode(), 130);
            // Resumed with the default (auto, which reads every field here now): it goes on
            // as it began, on the server, and says the analysis is partial.
            const QString resumed = analyze(
                QStringLiteral("awkward"), QStringLiteral("resumed-%1").arg(trial),
                scanArgs.mid(0, scanArgs.size() - 2) + QStringList{QStringLiteral("--resume")});
            QVERIFY(!resumed.isEmpty());
            QVERIFY2(m_lastErr.contains(QLatin1String("resumed: ")), qPrintable(m_lastErr));
            QVERIFY2(m_lastErr.contains(QLatin1String("resumed as it began: partial analysis")),
                     qPrintable(m_lastErr));
            QVERIFY2(!m_lastErr.contains(QLatin1String("documents measured client-side")),
                     qPrintable(m_lastErr));
            const auto got = fixtures::reportFiles(resumed);
            QCOMPARE(got.size(), expected.size());
            for (const auto &[name, bytes] : got)
                QVERIFY2(bytes == expected.at(name), qPrintable(name));
            resumedOnce = true;
        }
        QVERIFY2(resumedOnce, "no trial stopped the scan before it finished");
    }

    // The connection cut mid-scan (toxiproxy closes it after 300 KB of replies: past the
    // discovery read's ~180 KB, inside the scan's getMores, which batches of 20 documents make
    // many, and which the driver does not retry, unlike the find that opens a cursor): a clear
    // error and exit 3, never a report of part of the collection passed off as the whole.
    void connectionCutMidScan()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only");
        Toxiproxy proxy;
        QString error;
        QVERIFY2(proxy.start(m_server.value(QStringLiteral("OE_TEST_HOSTPORT")), &error),
                 qPrintable(error));
        const QString uri =
            QStringLiteral("mongodb://%1/?directConnection=true").arg(proxy.listen());
        QVERIFY2(proxy.addToxic(QStringLiteral("cut"), QStringLiteral("limit_data"),
                                QStringLiteral("downstream"), QStringLiteral("{\"bytes\": 300000}"),
                                &error),
                 qPrintable(error));
        const QString out = m_dir.filePath(QStringLiteral("cut"));
        const CliRun r = cli(QStringList{QStringLiteral("analyze")} +
                             target(QStringLiteral("activity_feeds"), uri) +
                             QStringList{QStringLiteral("--full"), QStringLiteral("--measure"),
                                         QStringLiteral("server"), QStringLiteral("--batch-size"),
                                         QStringLiteral("20"), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QLatin1String("connection")) ||
                     r.err.contains(QLatin1String("server")),
                 qPrintable(r.err));
        // Whatever was written says it is not the whole collection.
        QFile summary(QDir(out).filePath(QStringLiteral("summary.csv")));
        if (summary.open(QIODevice::ReadOnly))
            QVERIFY(!summary.readAll().contains("status,complete"));
    }

    // A sample is measured on the server too: $sample, then the projection.
    void sampleIsMeasuredOnTheServer()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only");
        const QString out = analyze(QStringLiteral("awkward"), QStringLiteral("sampled"),
                                    {QStringLiteral("--sample"), QStringLiteral("300"),
                                     QStringLiteral("--measure"), QStringLiteral("server")});
        QVERIFY(!out.isEmpty());
        QVERIFY2(m_lastErr.contains(QLatin1String("measured on the server")),
                 qPrintable(m_lastErr));
        // The summary's first line names the analysis partial too (stderr may be --quiet).
        QVERIFY2(m_lastOut.section(QLatin1Char('\n'), 0, 0)
                     .contains(QLatin1String("partial analysis: measured on the server")),
                 qPrintable(m_lastOut));
        QFile summary(QDir(out).filePath(QStringLiteral("summary.csv")));
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const QByteArray text = summary.readAll();
        QVERIFY2(text.contains("documents,300") && text.contains("via $sample"), text.constData());
    }

    // --max-docs-per-sec paces the server-side scan as it paces the client-side one: 600
    // documents at 300 a second cannot take less than about two seconds, on any server.
    void maxDocsPerSecondPacesTheServerScan()
    {
        if (!m_server.isMongod())
            QSKIP("mongod only");
        QElapsedTimer clock;
        clock.start();
        const QString out = analyze(QStringLiteral("awkward"), QStringLiteral("paced"),
                                    {QStringLiteral("--limit"), QStringLiteral("600"),
                                     QStringLiteral("--measure"), QStringLiteral("server"),
                                     QStringLiteral("--max-docs-per-sec"), QStringLiteral("300")});
        QVERIFY(!out.isEmpty());
        QVERIFY2(m_lastErr.contains(QLatin1String("measured on the server")),
                 qPrintable(m_lastErr));
        QVERIFY2(clock.elapsed() >= 1500, qPrintable(QString::number(clock.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestServerMeasure)
#include "tst_servermeasure.moc"
