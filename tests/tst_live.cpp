#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "LiveServer.h"
#include "SummaryCsv.h"
#include "analysis/Analyzer.h"
#include "mongo/LiveCollectionSource.h"
#include "mongo/MongoConnection.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <bson/bson.h>

#include <csignal>

using namespace oe;

// Integration tests against a real FerretDB server (never a mock), started by the CTest
// fixtures in tests/live/: plain, with a replica-set name, and with authentication.
class TestLive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_cli;
    fixtures::LiveServer m_server; // plain
    QString m_plain;               // URIs
    QString m_replset;
    QString m_auth;
    QString m_authUser;
    QString m_authPassword;
    QString m_authHostPort;

    using Run = CliRun;
    static Run cli(const QStringList &args) { return runCli(args, 180000); }
    // `analyze --sample N` of the 2,000 books, reports into `out`.
    Run sampleBooks(int count, const QString &out) const
    {
        return cli({QStringLiteral("analyze"), QStringLiteral("--uri"), m_plain,
                    QStringLiteral("--db"), QStringLiteral("oe_test"),
                    QStringLiteral("--collection"), QStringLiteral("book_sales"),
                    QStringLiteral("--out"), out, QStringLiteral("--sample"),
                    QString::number(count), QStringLiteral("--quiet")});
    }
    static QString metric(const QString &dir, const QString &name)
    {
        return fixtures::SummaryCsv::read(dir).value(name);
    }
    static QList<QStringList> withoutRunDetails(const QString &file)
    {
        QList<QStringList> rows;
        for (const auto &row : csvtest::readFile(file))
            if (!QStringList{QStringLiteral("source"), QStringLiteral("mode"),
                             QStringLiteral("seconds")}
                     .contains(row.value(0)))
                rows << row;
        return rows;
    }
    QString demo(const char *name) const
    {
        return m_dir.filePath(QStringLiteral("demo/%1.bson").arg(QLatin1String(name)));
    }
    void import(const QString &uri, const char *collection, const QString &dump)
    {
        const Run r = cli({QStringLiteral("import"), QStringLiteral("--uri"), uri,
                           QStringLiteral("--db"), QStringLiteral("oe_test"),
                           QStringLiteral("--collection"), QLatin1String(collection),
                           QStringLiteral("--dump"), dump, QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
    static ConnectionSettings settingsFor(const QString &uri)
    {
        ConnectionSettings s;
        s.uri = uri;
        return s;
    }

private slots:
    void initTestCase()
    {
        m_cli = qEnvironmentVariable("OE_CLI");
        QVERIFY(QFile::exists(m_cli));
        m_server = fixtures::LiveServer::open(QStringLiteral("plain"));
        m_plain = m_server.uri();
        m_replset = fixtures::LiveServer::open(QStringLiteral("replset")).uri();
        const auto auth = fixtures::LiveServer::open(QStringLiteral("auth"));
        m_auth = auth.value(QStringLiteral("OE_TEST_URI"));
        m_authUser = auth.value(QStringLiteral("OE_TEST_USER"));
        m_authPassword = auth.value(QStringLiteral("OE_TEST_PASSWORD"));
        m_authHostPort = auth.value(QStringLiteral("OE_TEST_HOSTPORT"));
        QVERIFY2(!m_plain.isEmpty() && !m_replset.isEmpty(),
                 "the live server fixtures did not start (see tests/live)");
        QCOMPARE(cli({QStringLiteral("demo-data"), QStringLiteral("--out"),
                      m_dir.filePath(QStringLiteral("demo"))})
                     .exitCode,
                 0);
        import(m_plain, "book_sales", demo("book_sales"));
        import(m_plain, "viral_posts", demo("viral_posts"));
    }

    // What the server is and can do, as the product finds out: MongoDB with $sample and
    // $bsonSize (transactions on the replica set only), FerretDB 1.x with neither.
    void testConnectionRecognisesTheServer()
    {
        Run r = cli({QStringLiteral("test-connection"), QStringLiteral("--uri"), m_plain});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const bool mongod = m_server.isMongod();
        QVERIFY2(r.out.contains(mongod ? QStringLiteral("server: MongoDB 6.0.5")
                                       : QStringLiteral("server: FerretDB v1.24.2")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("topology: standalone")));
        QVERIFY2(
            r.out.contains(mongod ? QStringLiteral("$sample: yes") : QStringLiteral("$sample: no")),
            qPrintable(r.out));
        QVERIFY2(r.out.contains(mongod ? QStringLiteral("$bsonSize: yes")
                                       : QStringLiteral("$bsonSize: no")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("transactions: no")));
        r = cli({QStringLiteral("test-connection"), QStringLiteral("--uri"), m_replset});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("topology: replica set rs0")), qPrintable(r.out));
        // A one-member replica set of mongod runs transactions; FerretDB 1.x has none.
        QVERIFY2(r.out.contains(mongod ? QStringLiteral("transactions: yes")
                                       : QStringLiteral("transactions: no")),
                 qPrintable(r.out));
    }

    void liveAnalysisEqualsDumpAnalysis_data()
    {
        QTest::addColumn<QString>("collection");
        QTest::newRow("book_sales") << QStringLiteral("book_sales");
        QTest::newRow("viral_posts") << QStringLiteral("viral_posts");
    }
    void liveAnalysisEqualsDumpAnalysis()
    {
        QFETCH(QString, collection);
        const QString live = m_dir.filePath(QStringLiteral("live_") + collection);
        const QString dump = m_dir.filePath(QStringLiteral("dump_") + collection);
        Run r =
            cli({QStringLiteral("analyze"), QStringLiteral("--uri"), m_plain,
                 QStringLiteral("--db"), QStringLiteral("oe_test"), QStringLiteral("--collection"),
                 collection, QStringLiteral("--out"), live, QStringLiteral("--full"),
                 QStringLiteral("--array-threshold"), QStringLiteral("50")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = cli({QStringLiteral("analyze"), QStringLiteral("--dump"),
                 demo(collection.toUtf8().constData()), QStringLiteral("--out"), dump,
                 QStringLiteral("--array-threshold"), QStringLiteral("50")});
        QCOMPARE(r.exitCode, 0);
        for (const char *file :
             {"summary.csv", "fields.csv", "outliers.csv", "size_histogram.csv",
              "array_histograms.csv", "recommendations.csv", "top_documents.csv"}) {
            const auto a = withoutRunDetails(live + QLatin1Char('/') + QLatin1String(file));
            const auto b = withoutRunDetails(dump + QLatin1Char('/') + QLatin1String(file));
            QVERIFY(!a.isEmpty());
            QVERIFY2(a == b, file);
        }
        QVERIFY(metric(live, QStringLiteral("source"))
                    .contains(QStringLiteral("oe_test.") + collection));
    }

    void replicaSetUriWorks()
    {
        import(m_replset, "book_sales", demo("book_sales"));
        const QString out = m_dir.filePath(QStringLiteral("rs"));
        const Run r = cli({QStringLiteral("analyze"), QStringLiteral("--uri"), m_replset,
                           QStringLiteral("--db"), QStringLiteral("oe_test"),
                           QStringLiteral("--collection"), QStringLiteral("book_sales"),
                           QStringLiteral("--out"), out, QStringLiteral("--quiet")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("2000"));
    }

    // --sample: the server's $sample where it has one, else a uniform client-side reservoir
    // over one pass (FerretDB 1.x).
    void sampleUsesSampleOrAUniformReservoir()
    {
        const QString out = m_dir.filePath(QStringLiteral("sample"));
        const Run r = sampleBooks(150, out);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("150"));
        const QString mode = metric(out, QStringLiteral("mode"));
        QVERIFY2(mode.contains(QStringLiteral("client-side reservoir")) == m_server.isFerretDb(),
                 qPrintable(mode));
        if (m_server.isMongod())
            QVERIFY2(mode.contains(QStringLiteral("$sample")), qPrintable(mode));
        // It states its precision (a random part of the collection)...
        QVERIFY(!metric(out, QStringLiteral("size_p99_ci_low")).isEmpty());
        QVERIFY(!metric(out, QStringLiteral("sample_for_p99_target")).isEmpty());
    }

    // A sample larger than the collection reads every document: it is exact, with no confidence
    // interval, no "larger unseen" share and no sample size to aim for (both servers: $sample
    // and the reservoir).
    void sampleOfEveryDocumentIsExact()
    {
        const QString out = m_dir.filePath(QStringLiteral("sample_all"));
        const Run r = sampleBooks(10000, out);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("2000"));
        for (const char *row :
             {"confidence", "size_p50_ci_low", "size_p99_ci_high", "share_above_sample_max",
              "documents_above_sample_max", "sample_for_p99_within_0_1", "sample_for_p99_target"})
            QVERIFY2(metric(out, QLatin1String(row)).isEmpty(),
                     qPrintable(QStringLiteral("%1: %2").arg(QLatin1String(row),
                                                             metric(out, QLatin1String(row)))));
    }

    void filterLimitAndTimeLimit()
    {
        const QString out = m_dir.filePath(QStringLiteral("filter"));
        Run r = cli({QStringLiteral("analyze"), QStringLiteral("--uri"), m_plain,
                     QStringLiteral("--db"), QStringLiteral("oe_test"),
                     QStringLiteral("--collection"), QStringLiteral("book_sales"),
                     QStringLiteral("--out"), out, QStringLiteral("--filter"),
                     QStringLiteral("{\"_id\": {\"$lte\": 500}}"), QStringLiteral("--max-time-ms"),
                     QStringLiteral("60000"), QStringLiteral("--quiet")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("500"));
        r = cli({QStringLiteral("analyze"), QStringLiteral("--uri"), m_plain,
                 QStringLiteral("--db"), QStringLiteral("oe_test"), QStringLiteral("--collection"),
                 QStringLiteral("book_sales"), QStringLiteral("--out"), out,
                 QStringLiteral("--limit"), QStringLiteral("42"), QStringLiteral("--quiet")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("42"));
        r = cli({QStringLiteral("analyze"), QStringLiteral("--uri"), m_plain,
                 QStringLiteral("--db"), QStringLiteral("oe_test"), QStringLiteral("--collection"),
                 QStringLiteral("book_sales"), QStringLiteral("--out"), out,
                 QStringLiteral("--filter"), QStringLiteral("{\"_id\": {\"$lte\": }")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--filter")) && r.err.count(QLatin1Char('\n')) == 1,
                 qPrintable(r.err));
    }

    void listShowsCollectionsWithStatistics()
    {
        const Run r = cli({QStringLiteral("list"), QStringLiteral("--uri"), m_plain,
                           QStringLiteral("--db"), QStringLiteral("oe_test")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto rows = csvtest::parse(r.out.toUtf8());
        QCOMPARE(rows.first().mid(0, 4),
                 QStringLiteral("database,collection,type,documents").split(QLatin1Char(',')));
        bool found = false;
        for (const auto &row : rows)
            if (row.value(1) == QLatin1String("book_sales")) {
                found = true;
                QCOMPARE(row.value(3), QStringLiteral("2000"));
            }
        QVERIFY(found);
        const Run all = cli({QStringLiteral("list"), QStringLiteral("--uri"), m_plain});
        QVERIFY(all.out.contains(QStringLiteral("oe_test,viral_posts")));
    }

    void unreachableServerFailsFastWithHostAndStep()
    {
        const Run r =
            cli({QStringLiteral("analyze"), QStringLiteral("--uri"),
                 QStringLiteral("mongodb://127.0.0.1:1/"), QStringLiteral("--db"),
                 QStringLiteral("x"), QStringLiteral("--collection"), QStringLiteral("y"),
                 QStringLiteral("--out"), m_dir.filePath(QStringLiteral("none")),
                 QStringLiteral("--server-selection-timeout-ms"), QStringLiteral("2000")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("127.0.0.1:1")) &&
                     r.err.contains(QStringLiteral("opening x.y")),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.ms < 10000, qPrintable(QString::number(r.ms)));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("none/summary.csv"))));
    }

    void authenticationSucceedsAndFails()
    {
        QVERIFY2(!m_auth.isEmpty(), "no auth fixture (OE_LIVE_DIR/auth/env)");
        Run r = cli({QStringLiteral("test-connection"), QStringLiteral("--uri"), m_auth});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(!r.out.contains(m_authPassword));
        QString wrong = m_auth;
        wrong.replace(QLatin1Char(':') + m_authPassword + QLatin1Char('@'),
                      QStringLiteral(":not-the-password@"));
        QVERIFY(wrong != m_auth);
        r = cli({QStringLiteral("analyze"), QStringLiteral("--uri"), wrong, QStringLiteral("--db"),
                 QStringLiteral("oe_test"), QStringLiteral("--collection"), QStringLiteral("x"),
                 QStringLiteral("--out"), m_dir.filePath(QStringLiteral("auth"))});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("uthentication failed")), qPrintable(r.err));
        QVERIFY2(r.err.contains(m_authHostPort), qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("not-the-password")));
    }

    void tlsWithCaClientCertificateAndHostNameChecks()
    {
        const auto tls = fixtures::LiveServer::open(QStringLiteral("tls"));
        const QString byName = tls.value(QStringLiteral("OE_TEST_TLS_URI"));
        const QString byIp = tls.value(QStringLiteral("OE_TEST_TLS_IP_URI"));
        const QString ca = tls.value(QStringLiteral("OE_TEST_TLS_CA"));
        const QString client = tls.value(QStringLiteral("OE_TEST_TLS_CLIENT"));
        QVERIFY(!byName.isEmpty() && QFile::exists(ca) && QFile::exists(client));
        auto connect = [&](const QString &uri, const QStringList &extra) {
            return cli(QStringList{QStringLiteral("test-connection"), QStringLiteral("--uri"), uri,
                                   QStringLiteral("--server-selection-timeout-ms"),
                                   QStringLiteral("3000")} +
                       extra);
        };
        const QStringList caAndCert = {QStringLiteral("--tls-ca-file"), ca,
                                       QStringLiteral("--tls-certificate-key-file"), client};
        Run r = connect(byName, caAndCert);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(m_server.isMongod() ? QStringLiteral("server: MongoDB")
                                                    : QStringLiteral("server: FerretDB")),
                 qPrintable(r.out));
        // The server's certificate is not trusted without the CA.
        r = connect(byName, {QStringLiteral("--tls-certificate-key-file"), client});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("certificate verify failed")), qPrintable(r.err));
        // The certificate names "localhost", not 127.0.0.1: refused unless the user allows it.
        r = connect(byIp, caAndCert);
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("mismatch")), qPrintable(r.err));
        r = connect(byIp, caAndCert + QStringList{QStringLiteral("--tls-allow-invalid-hostnames")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The server requires a client certificate.
        r = connect(byName, {QStringLiteral("--tls-ca-file"), ca});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        // And a scan over TLS works like any other.
        import(tls.value(QStringLiteral("OE_TEST_URI")), "book_sales", demo("book_sales"));
        const QString out = m_dir.filePath(QStringLiteral("tls"));
        r = cli(QStringList{QStringLiteral("analyze"), QStringLiteral("--uri"), byName,
                            QStringLiteral("--db"), QStringLiteral("oe_test"),
                            QStringLiteral("--collection"), QStringLiteral("book_sales"),
                            QStringLiteral("--out"), out, QStringLiteral("--quiet")} +
                caAndCert);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("2000"));
    }

    void progressAndCancellationReturnAPartialResult()
    {
        LiveQuery query;
        query.database = QStringLiteral("oe_test");
        query.collection = QStringLiteral("book_sales");
        query.batchSize = 50;
        LiveCollectionSource source(settingsFor(m_plain), query);
        AnalysisOptions options;
        options.batchBytes = 4096; // many small batches
        std::atomic<bool> cancel{false};
        int calls = 0;
        const CollectionProfile p =
            Analyzer::run(source, options, &cancel, [&](const Analyzer::Progress &progress) {
                ++calls;
                QCOMPARE(progress.totalDocuments.value_or(0), 2000u);
                if (progress.documents > 0)
                    cancel = true;
            });
        QVERIFY(calls >= 1);
        QCOMPARE(p.status, CollectionProfile::Status::Cancelled);
        QVERIFY(p.isPartial());
        QVERIFY2(p.documents > 0 && p.documents < 2000, qPrintable(QString::number(p.documents)));
    }

    void killedCursorIsAClearError()
    {
        LiveQuery query;
        query.database = QStringLiteral("oe_test");
        query.collection = QStringLiteral("book_sales");
        query.batchSize = 20;
        LiveCollectionSource source(settingsFor(m_plain), query);
        SourceError error;
        QVERIFY(source.open(&error));
        DocumentBatch batch;
        QCOMPARE(source.read(batch, 1, &error), DocumentSource::ReadResult::Batch);
        const std::int64_t id = source.cursorId();
        QVERIFY(id != 0);
        auto other = MongoConnection::open(settingsFor(m_plain), &error);
        QVERIFY(other);
        bson_t *cmd =
            BCON_NEW("killCursors", BCON_UTF8("book_sales"), "cursors", "[", BCON_INT64(id), "]");
        const QByteArray bytes(reinterpret_cast<const char *>(bson_get_data(cmd)),
                               qsizetype(cmd->len));
        bson_destroy(cmd);
        SourceError killError;
        other->command(QStringLiteral("oe_test"), bytes, QStringLiteral("killCursors"), &killError);
        QVERIFY2(!killError.isError(), qPrintable(killError.toString()));
        DocumentSource::ReadResult result = DocumentSource::ReadResult::Batch;
        while (result == DocumentSource::ReadResult::Batch)
            result = source.read(batch, 1 << 20, &error);
        QCOMPARE(result, DocumentSource::ReadResult::Error);
        QCOMPARE(error.kind, SourceError::Kind::Connection);
        QVERIFY2(error.toString().contains(QStringLiteral("reading oe_test.book_sales")),
                 qPrintable(error.toString()));
    }

    void serverKilledMidScanIsAClearErrorWithAPartialResult()
    {
        // A server of its own, so killing it does not disturb the other tests.
        const QString state = m_dir.filePath(QStringLiteral("victim"));
        const QString script = QStringLiteral(OE_SOURCE_DIR "/tests/live/ferretdb-fixture.sh");
        QProcess start;
        start.start(QStringLiteral("bash"),
                    {script, QStringLiteral("start"), state, QStringLiteral("plain")});
        QVERIFY(start.waitForFinished(120000));
        QCOMPARE(start.exitCode(), 0);
        QMap<QString, QString> env;
        QFile f(state + QStringLiteral("/env"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const QByteArray &line : f.readAll().split('\n'))
            if (line.indexOf('=') > 0)
                env.insert(QString::fromUtf8(line.left(line.indexOf('='))),
                           QString::fromUtf8(line.mid(line.indexOf('=') + 1)).trimmed());
        const QString uri = env.value(QStringLiteral("OE_TEST_URI"));
        import(uri, "book_sales", demo("book_sales"));

        LiveQuery query;
        query.database = QStringLiteral("oe_test");
        query.collection = QStringLiteral("book_sales");
        query.batchSize = 20;
        LiveCollectionSource source(settingsFor(uri), query);
        AnalysisOptions options;
        options.batchBytes = 2048;
        bool killed = false;
        QElapsedTimer t;
        t.start();
        const CollectionProfile p =
            Analyzer::run(source, options, nullptr, [&](const Analyzer::Progress &progress) {
                if (!killed && progress.documents > 0) {
                    ::kill(env.value(QStringLiteral("OE_TEST_PID")).toInt(), SIGKILL);
                    killed = true;
                }
            });
        QProcess::execute(QStringLiteral("bash"), {script, QStringLiteral("stop"), state});
        QVERIFY(killed);
        QCOMPARE(p.status, CollectionProfile::Status::Failed);
        QCOMPARE(p.error.kind, SourceError::Kind::Connection);
        QVERIFY2(p.error.toString().contains(env.value(QStringLiteral("OE_TEST_HOSTPORT"))),
                 qPrintable(p.error.toString()));
        QVERIFY2(p.error.toString().contains(QStringLiteral("reading oe_test.book_sales")),
                 qPrintable(p.error.toString()));
        QVERIFY(p.documents > 0 && p.documents < 2000);
        QVERIFY2(t.elapsed() < 30000, qPrintable(QString::number(t.elapsed())));
    }
};

QTEST_GUILESS_MAIN(TestLive)
#include "tst_live.moc"
