// Real network faults between the CLI and a real FerretDB server, made by a real toxiproxy
// (never sleeps or mocks in the code under test): a connection cut in the middle of a batch, a
// link that stalls past the socket timeout, a bandwidth cap — during a parallel full scan. Each
// failure is one clear line naming the host, the reports are marked partial, the scan state
// is kept, and the resumed scan ends with the reports of one that met no fault. The scan reads
// every document here (--measure client, the resumable scan; auto would count in the cluster
// should the loaded proxy answer past 5 ms a round trip).
#include "CliRunner.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "ScanFixtures.h"
#include "SummaryCsv.h"
#include "Toxiproxy.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <map>

class TestFaults : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_direct;  // the server itself
    QString m_proxied; // through toxiproxy
    Toxiproxy m_proxy;
    std::map<QString, QByteArray> m_expected; // reports of a scan that met no fault
    const QStringList kScan{
        QStringLiteral("--db"),      QStringLiteral("oe_faults"), QStringLiteral("--collection"),
        QStringLiteral("books"),     QStringLiteral("--full"),    QStringLiteral("--parallel"),
        QStringLiteral("2"),         QStringLiteral("--top"),     QStringLiteral("500"),
        QStringLiteral("--measure"), QStringLiteral("client")};

    static std::map<QString, QByteArray> reports(const QString &dir)
    {
        return fixtures::reportFiles(dir);
    }
    QString summaryValue(const QString &dir, const QString &metric) const
    {
        return fixtures::SummaryCsv::read(dir).value(metric);
    }
    CliRun analyze(const QString &uri, const QString &out, const QStringList &extra = {})
    {
        return runCli(QStringList{QStringLiteral("analyze"), QStringLiteral("--uri"), uri} + kScan +
                          QStringList{QStringLiteral("--out"), m_dir.filePath(out)} + extra,
                      300000);
    }
    int stateFiles() const
    {
        return int(QDir(m_dir.filePath(QStringLiteral("xdg/outlier-explorer/scans")))
                       .entryList({QStringLiteral("*.oescan")}, QDir::Files)
                       .size());
    }
    // The failed run's promises: one error line naming the proxy, partial reports, a state.
    void checkPartial(const CliRun &r, const QString &out)
    {
        QCOMPARE(r.exitCode, 3);
        const QStringList lines = r.err.trimmed().split(QLatin1Char('\n'));
        const QString error = lines.last();
        qInfo("%s", qPrintable(error));
        QVERIFY2(error.startsWith(QStringLiteral("outlier-explorer-cli: ")), qPrintable(r.err));
        QVERIFY2(error.contains(m_proxy.listen()), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("reports cover the")), qPrintable(error));
        QVERIFY2(!r.err.contains(QStringLiteral("assert")), qPrintable(r.err));
        QCOMPARE(summaryValue(m_dir.filePath(out), QStringLiteral("status")),
                 QStringLiteral("failed (partial)"));
        QVERIFY(summaryValue(m_dir.filePath(out), QStringLiteral("documents")).toInt() < 3000);
        QCOMPARE(stateFiles(), 1);
    }
    void resumeGivesTheExpectedReports(const QString &out)
    {
        const CliRun r = analyze(m_proxied, out, {QStringLiteral("--resume")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("resumed: ")), qPrintable(r.err));
        const auto got = reports(m_dir.filePath(out));
        QCOMPARE(got.size(), m_expected.size());
        for (const auto &[name, bytes] : got)
            QVERIFY2(bytes == m_expected.at(name), qPrintable(name));
        QCOMPARE(stateFiles(), 0);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8());
        const auto server = fixtures::LiveServer::open();
        QVERIFY2(server.isValid(), qPrintable(server.missing()));
        m_direct = server.uri();
        const QString hostPort = server.value(QStringLiteral("OE_TEST_HOSTPORT"));
        QVERIFY(!hostPort.isEmpty());
        QString error;
        QVERIFY2(m_proxy.start(hostPort, &error), qPrintable(error));
        // Short timeouts, so a stalled link fails in seconds rather than the default minutes;
        // long enough that a busy 2-core machine answers every sound request within them.
        m_proxied =
            QStringLiteral("mongodb://%1/?socketTimeoutMS=6000&serverSelectionTimeoutMS=8000")
                .arg(m_proxy.listen());

        CliRun r = runCli({QStringLiteral("demo-data"), QStringLiteral("--out"), m_dir.path(),
                           QStringLiteral("--dataset"), QStringLiteral("book_sales"),
                           QStringLiteral("--docs"), QStringLiteral("3000")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli({QStringLiteral("import"), QStringLiteral("--uri"), m_direct,
                    QStringLiteral("--db"), QStringLiteral("oe_faults"),
                    QStringLiteral("--collection"), QStringLiteral("books"),
                    QStringLiteral("--dump"), m_dir.filePath(QStringLiteral("book_sales.bson")),
                    QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = analyze(m_proxied, QStringLiteral("expected"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        m_expected = reports(m_dir.filePath(QStringLiteral("expected")));
        QCOMPARE(m_expected.size(), std::size_t(10));
    }

    // Every connection is cut after 400 KB: both ranges die mid-batch, deterministically.
    void connectionCutMidBatch()
    {
        QString error;
        QVERIFY2(m_proxy.addToxic(QStringLiteral("cut"), QStringLiteral("limit_data"),
                                  QStringLiteral("downstream"),
                                  QStringLiteral("{\"bytes\": 400000}"), &error),
                 qPrintable(error));
        const CliRun r = analyze(m_proxied, QStringLiteral("cut"),
                                 {QStringLiteral("--checkpoint-ms"), QStringLiteral("0")});
        QVERIFY(m_proxy.removeToxic(QStringLiteral("cut"), &error));
        checkPartial(r, QStringLiteral("cut"));
        resumeGivesTheExpectedReports(QStringLiteral("cut-resumed"));
    }

    // The link stops carrying anything (a dead route: no reset, no data) once the scan is under
    // way: the socket timeout ends it, and the state saved before lets it resume.
    void stalledLinkPastTheSocketTimeout()
    {
        QProcess p;
        p.setProgram(qEnvironmentVariable("OE_CLI"));
        p.setArguments(QStringList{QStringLiteral("analyze"), QStringLiteral("--uri"), m_proxied} +
                       kScan +
                       QStringList{QStringLiteral("--out"), m_dir.filePath(QStringLiteral("stall")),
                                   QStringLiteral("--batch-size"), QStringLiteral("5"),
                                   QStringLiteral("--checkpoint-ms"), QStringLiteral("0")});
        p.start();
        QVERIFY(p.waitForStarted());
        // Stall once a typed range has read documents (not at the first state, which the
        // empty range of other _id types may write before the others have connected).
        QVERIFY2(fixtures::waitForScanProgress(
                     p, m_dir.filePath(QStringLiteral("xdg/outlier-explorer/scans"))),
                 "the scan ended before it had read documents");
        QString error;
        QVERIFY2(m_proxy.addToxic(QStringLiteral("stall"), QStringLiteral("timeout"),
                                  QStringLiteral("downstream"), QStringLiteral("{\"timeout\": 0}"),
                                  &error),
                 qPrintable(error));
        QElapsedTimer stalled;
        stalled.start();
        QVERIFY(p.waitForFinished(60000));
        const qint64 ms = stalled.elapsed();
        QVERIFY(m_proxy.removeToxic(QStringLiteral("stall"), &error));
        CliRun r;
        r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.err = QString::fromUtf8(p.readAllStandardError());
        checkPartial(r, QStringLiteral("stall"));
        QVERIFY2(ms < 30000, qPrintable(QStringLiteral("ended %1 ms after the stall").arg(ms)));
        resumeGivesTheExpectedReports(QStringLiteral("stall-resumed"));
    }

    // A slow link (256 KB/s each way) changes nothing but the time.
    void bandwidthCapChangesNothingButTime()
    {
        QString error;
        QVERIFY(m_proxy.addToxic(QStringLiteral("slow"), QStringLiteral("bandwidth"),
                                 QStringLiteral("downstream"), QStringLiteral("{\"rate\": 256}"),
                                 &error));
        // Batches of 300 documents (~350 KB): mongod's default first batches of up to 16 MB
        // would take longer than the 6 s socket timeout at this rate.
        const CliRun r = analyze(m_proxied, QStringLiteral("slow"),
                                 {QStringLiteral("--batch-size"), QStringLiteral("300")});
        QVERIFY(m_proxy.removeToxic(QStringLiteral("slow"), &error));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto got = reports(m_dir.filePath(QStringLiteral("slow")));
        for (const auto &[name, bytes] : got)
            QVERIFY2(bytes == m_expected.at(name), qPrintable(name));
        QVERIFY2(r.ms > 3000, qPrintable(QString::number(r.ms))); // 3.1 MB at 2 x 256 KB/s
    }

    // split, verify and rollback, each through connections cut after a few hundred KB: each
    // fails in one line naming the host; run again on a sound link, each completes from its
    // journal; verify finds nothing lost or duplicated, and after the rollback every document
    // is byte for byte what it was.
    void migrationThroughCutConnections()
    {
        const QString collection = QStringLiteral("split_books");
        const QString small = m_dir.filePath(QStringLiteral("small"));
        CliRun r = runCli({QStringLiteral("demo-data"), QStringLiteral("--out"), small,
                           QStringLiteral("--dataset"), QStringLiteral("book_sales"),
                           QStringLiteral("--docs"), QStringLiteral("400")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli({QStringLiteral("import"), QStringLiteral("--uri"), m_direct,
                    QStringLiteral("--db"), QStringLiteral("oe_faults"),
                    QStringLiteral("--collection"), collection, QStringLiteral("--dump"),
                    small + QStringLiteral("/book_sales.bson"), QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto original =
            fixtures::readCollection(m_direct, QStringLiteral("oe_faults"), collection);
        QCOMPARE(int(original.size()), 400);
        // The product's own socket timeout: FerretDB 1.x takes seconds for a batch of updates.
        const QString uri =
            QStringLiteral("mongodb://%1/?serverSelectionTimeoutMS=4000").arg(m_proxy.listen());
        const QStringList target{
            QStringLiteral("--uri"),        uri,
            QStringLiteral("--db"),         QStringLiteral("oe_faults"),
            QStringLiteral("--collection"), collection,
            QStringLiteral("--field"),      QStringLiteral("customers_purchased")};
        const QStringList split = QStringList{QStringLiteral("split")} + target +
                                  QStringList{QStringLiteral("--keep"),      QStringLiteral("20"),
                                              QStringLiteral("--page-size"), QStringLiteral("50"),
                                              QStringLiteral("--batch"),     QStringLiteral("10"),
                                              QStringLiteral("--yes")};
        const QStringList verify = QStringList{QStringLiteral("verify")} + target;
        const QStringList rollback =
            QStringList{QStringLiteral("rollback")} + target +
            QStringList{QStringLiteral("--batch"), QStringLiteral("10"), QStringLiteral("--yes")};
        auto cutThenRedo = [&](const QStringList &args, const QString &stream, int bytes) {
            QString error;
            QVERIFY(m_proxy.addToxic(QStringLiteral("cut"), QStringLiteral("limit_data"), stream,
                                     QStringLiteral("{\"bytes\": %1}").arg(bytes), &error));
            const CliRun cut = runCli(args, 300000);
            QVERIFY(m_proxy.removeToxic(QStringLiteral("cut"), &error));
            QCOMPARE(cut.exitCode, 3);
            const QString line = cut.err.trimmed().split(QLatin1Char('\n')).last();
            qInfo("%s: %s", qPrintable(args.first()), qPrintable(line));
            QVERIFY2(line.startsWith(QStringLiteral("outlier-explorer-cli: ")) &&
                         line.contains(m_proxy.listen()),
                     qPrintable(cut.err));
            const CliRun redo = runCli(args, 300000);
            QVERIFY2(redo.exitCode == 0,
                     qPrintable(redo.err.trimmed().split(QLatin1Char('\n')).last() +
                                QLatin1Char('\n') + redo.out));
        };
        cutThenRedo(split, QStringLiteral("upstream"), 60000);
        cutThenRedo(verify, QStringLiteral("downstream"), 100000);
        cutThenRedo(rollback, QStringLiteral("upstream"), 60000);
        const auto after =
            fixtures::readCollection(m_direct, QStringLiteral("oe_faults"), collection);
        QCOMPARE(after.size(), original.size());
        QVERIFY(after == original);
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
