#include "BsonFixtures.h"
#include "CliRunner.h"
#include "LiveDocuments.h"
#include "ScanFixtures.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <map>
#include <set>

// Parallel, resumable full scans against a real FerretDB server: `analyze --full --parallel N`
// must write the same reports, byte for byte (but the run's seconds), for every N, on the demo
// data and on a collection whose _ids mix nine BSON types; the figures must equal the
// single-cursor scan's; a scan killed (SIGKILL) or interrupted (SIGINT) at random points and
// resumed must end with the reports of one that never stopped; a complete scan whose reports
// could not be written keeps its state until they are.
class TestRangedScan : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_uri;
    QString m_lastErr; // what the last analyze() printed on stderr
    const QString kDatabase = QStringLiteral("oe_rangedscan");

    static CliRun cli(const QStringList &args) { return runCli(args, 600000); }
    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), kDatabase,
                QStringLiteral("--collection"), collection};
    }
    // Every report file of an analyze run, the summary without its `seconds` row.
    static std::map<QString, QByteArray> reports(const QString &dir)
    {
        return fixtures::reportFiles(dir);
    }
    QString analyze(const QString &collection, const QString &name, const QStringList &extra)
    {
        const QString out = m_dir.filePath(name);
        const CliRun r = cli(QStringList{QStringLiteral("analyze")} + target(collection) +
                             QStringList{QStringLiteral("--full"), QStringLiteral("--top"),
                                         QStringLiteral("500"), QStringLiteral("--out"), out} +
                             extra);
        m_lastErr = r.err;
        if (r.exitCode != 0)
            qWarning("%s", qPrintable(r.err));
        return r.exitCode == 0 ? out : QString();
    }
    void import(const QString &collection, const QString &dump)
    {
        const CliRun r = cli(QStringList{QStringLiteral("import")} + target(collection) +
                             QStringList{QStringLiteral("--dump"), dump, QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    // 900 documents whose _ids are ObjectIds, int32, int64 and double numbers, strings, dates,
    // embedded documents, null and booleans, with arrays and sizes full of ties. (FerretDB 1.x
    // holds a date equal to the number of its milliseconds: the dates are far from the numbers.)
    static QByteArray mixedIdDump()
    {
        QList<QByteArray> docs;
        auto add = [&](const QString &id, int i) {
            const int length = (i * 7) % 53;
            QString items;
            for (int k = 0; k < length; ++k)
                items += (k ? QStringLiteral(",") : QString()) + QString::number(k % 5);
            const QString json = QStringLiteral("{\"_id\": %1, \"items\": [%2], \"tags\": [%3], "
                                                "\"pad\": \"%4\"}")
                                     .arg(id, items,
                                          QString(QStringLiteral("\"t\",")).repeated(i % 4) +
                                              QStringLiteral("\"z\""),
                                          QString(i % 9 * 40, QLatin1Char('x')));
            docs << fixtures::bson(json.toUtf8().constData());
        };
        int i = 0;
        for (int k = 0; k < 400; ++k, ++i)
            add(QStringLiteral("{\"$oid\": \"65a0%1\"}")
                    .arg(k * 7919 % 100000, 20, 10, QLatin1Char('0')),
                i);
        for (int k = 0; k < 150; ++k, ++i)
            add(QString::number(k * 3), i);
        for (int k = 0; k < 60; ++k, ++i)
            add(QStringLiteral("{\"$numberLong\": \"%1\"}").arg(1000 + k * 3 + 1), i);
        for (int k = 0; k < 60; ++k, ++i)
            add(QStringLiteral("%1.5").arg(k * 3 + 2), i);
        for (int k = 0; k < 120; ++k, ++i)
            add(QStringLiteral("\"user-%1\"").arg(k * 37 % 1000, 4, 10, QLatin1Char('0')), i);
        for (int k = 0; k < 60; ++k, ++i)
            add(QStringLiteral("{\"$date\": {\"$numberLong\": \"%1\"}}")
                    .arg(1600000000000 + qint64(k) * 86400000),
                i);
        for (int k = 0; k < 47; ++k, ++i)
            add(QStringLiteral("{\"a\": %1}").arg(k), i);
        add(QStringLiteral("null"), i++);
        add(QStringLiteral("true"), i++);
        add(QStringLiteral("false"), i++);
        return fixtures::concat(docs);
    }

    QString stateDir() const
    {
        return m_dir.filePath(QStringLiteral("xdg/outlier-explorer/scans"));
    }
    int stateFiles() const
    {
        return int(QDir(stateDir()).entryList({QStringLiteral("*.oescan")}, QDir::Files).size());
    }

private slots:
    void initTestCase()
    {
        m_uri = fixtures::liveUri();
        QVERIFY(!m_uri.isEmpty());
        QVERIFY(m_dir.isValid());
        // The scan state goes under the test's own data folder.
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8());
        CliRun r = cli({QStringLiteral("demo-data"), QStringLiteral("--out"), m_dir.path(),
                        QStringLiteral("--dataset"), QStringLiteral("book_sales"),
                        QStringLiteral("--docs"), QStringLiteral("3000")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        import(QStringLiteral("books"), m_dir.filePath(QStringLiteral("book_sales.bson")));
        const QString mixed = m_dir.filePath(QStringLiteral("mixed.bson"));
        QVERIFY(fixtures::writeFile(mixed, mixedIdDump()));
        import(QStringLiteral("mixed"), mixed);
    }

    void anyRangeCountGivesTheSameReports_data()
    {
        QTest::addColumn<QString>("collection");
        QTest::addColumn<QString>("filter");
        QTest::newRow("demo book_sales") << "books" << QString();
        QTest::newRow("mixed _id types") << "mixed" << QString();
        QTest::newRow("mixed, filtered") << "mixed"
                                         << "{\"tags\": \"t\"}";
    }
    void anyRangeCountGivesTheSameReports()
    {
        QFETCH(QString, collection);
        QFETCH(QString, filter);
        const QStringList filterArgs =
            filter.isEmpty() ? QStringList() : QStringList{QStringLiteral("--filter"), filter};
        const QString tag = collection + QString::number(qHash(filter));
        const QString single = analyze(collection, tag + QStringLiteral("-plain"), filterArgs);
        QVERIFY(!single.isEmpty());
        std::map<QString, QByteArray> first;
        for (int n : {1, 2, 4, 7}) {
            const QString out =
                analyze(collection, tag + QStringLiteral("-p%1").arg(n),
                        filterArgs + QStringList{QStringLiteral("--parallel"), QString::number(n)});
            QVERIFY(!out.isEmpty());
            const auto files = reports(out);
            QCOMPARE(files.size(), std::size_t(8));
            if (first.empty()) {
                first = files;
                continue;
            }
            for (const auto &[name, bytes] : files)
                QVERIFY2(bytes == first[name],
                         qPrintable(QStringLiteral("N=%1 %2").arg(n).arg(name)));
        }
        // The figures equal the single cursor's (which numbers documents in natural order,
        // so only the files without a doc_index column compare whole).
        const auto plain = reports(single);
        for (const auto &[name, bytes] : plain) {
            if (bytes.startsWith("metric") || !bytes.contains("doc_index"))
                QVERIFY2(bytes == first[name], qPrintable(name));
        }
        QVERIFY(first[QStringLiteral("summary.csv")].contains(
            filter.isEmpty()
                ? (collection == QLatin1String("books") ? "documents,3000" : "documents,900")
                : "documents,"));
        QCOMPARE(stateFiles(), 0); // a finished scan leaves no state behind
    }

    // doc_index is the document's rank in _id order (MongoDB's order of types, then values):
    // null 0, the 270 numbers 1-270, the 120 strings from 271, 47 documents, the 400
    // ObjectIds (the cut type), false 838, true 839, the 60 dates up to 899.
    void documentsAreNumberedInIdOrder()
    {
        const QString out = analyze(QStringLiteral("mixed"), QStringLiteral("order"),
                                    {QStringLiteral("--parallel"), QStringLiteral("3"),
                                     QStringLiteral("--size-threshold"), QStringLiteral("1")});
        QVERIFY(!out.isEmpty());
        QFile f(QDir(out).filePath(QStringLiteral("outliers.csv")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(f.readAll());
        std::map<QString, int> indexOf;
        for (const QString &line : csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts).mid(1)) {
            const QStringList cells = line.split(QLatin1Char(','));
            indexOf[cells.first()] = cells.at(cells.size() - 2).toInt();
        }
        QCOMPARE(int(indexOf.size()), 900);
        QCOMPARE(indexOf[QStringLiteral("null")], 0);
        QCOMPARE(indexOf[QStringLiteral("0")], 1);
        QCOMPARE(indexOf[QStringLiteral("\"\"\"user-0000\"\"\"")], 271);
        QCOMPARE(indexOf[QStringLiteral("false")], 838);
        QCOMPARE(indexOf[QStringLiteral("true")], 839);
        std::set<int> all;
        for (const auto &[id, index] : indexOf)
            all.insert(index);
        QCOMPARE(int(all.size()), 900);
        QCOMPARE(*all.rbegin(), 899);
    }

    // Killed at random points (after its state was first saved), then resumed: the same
    // reports as a scan that never stopped, for each kill.
    void killedAndResumedGivesTheSameReports_data()
    {
        QTest::addColumn<int>("signal");
        QTest::addColumn<int>("ranges");
        QTest::newRow("SIGKILL, 3 ranges") << int(SIGKILL) << 3;
        QTest::newRow("SIGKILL, 1 range") << int(SIGKILL) << 1;
        QTest::newRow("SIGINT, 2 ranges") << int(SIGINT) << 2;
    }
    void killedAndResumedGivesTheSameReports()
    {
        QFETCH(int, signal);
        QFETCH(int, ranges);
        const QStringList scanArgs{QStringLiteral("--parallel"),      QString::number(ranges),
                                   QStringLiteral("--batch-size"),    QStringLiteral("5"),
                                   QStringLiteral("--checkpoint-ms"), QStringLiteral("0")};
        const QString whole =
            analyze(QStringLiteral("books"), QStringLiteral("whole%1").arg(ranges), scanArgs);
        QVERIFY(!whole.isEmpty());
        const auto expected = reports(whole);
        int interrupted = 0;
        QList<int> resumedFrom;
        for (int trial = 0; trial < 3; ++trial) {
            const QString out = m_dir.filePath(
                QStringLiteral("killed-%1-%2-%3").arg(signal).arg(ranges).arg(trial));
            QProcess p;
            p.setProgram(qEnvironmentVariable("OE_CLI"));
            p.setArguments(QStringList{QStringLiteral("analyze")} +
                           target(QStringLiteral("books")) +
                           QStringList{QStringLiteral("--full"), QStringLiteral("--top"),
                                       QStringLiteral("500"), QStringLiteral("--out"), out,
                                       QStringLiteral("--quiet")} +
                           scanArgs);
            p.start();
            QVERIFY(p.waitForStarted());
            // Stop it once a typed range has saved documents, a random moment later (each
            // batch of 5 saves the state: the client's own work keeps the scan going for a
            // while on any server).
            fixtures::waitForScanProgress(p, stateDir());
            QTest::qWait(int(QRandomGenerator::global()->bounded(150)));
            if (p.state() == QProcess::Running) {
                ::kill(pid_t(p.processId()), signal);
                ++interrupted;
            }
            QVERIFY(p.state() == QProcess::NotRunning || p.waitForFinished(60000));
            if (signal == SIGINT && p.exitStatus() == QProcess::NormalExit && p.exitCode() != 0) {
                QCOMPARE(p.exitCode(), 130);
                QVERIFY2(p.readAllStandardError().contains("--resume"),
                         "the message names --resume");
            }
            if (p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) {
                QCOMPARE(stateFiles(), 0);
                continue; // it finished first
            }
            QCOMPARE(stateFiles(), 1);
            // Resumed (into a fresh folder): the reports of the uninterrupted scan.
            const QString resumed =
                analyze(QStringLiteral("books"),
                        QStringLiteral("resumed-%1-%2-%3").arg(signal).arg(ranges).arg(trial),
                        scanArgs + QStringList{QStringLiteral("--resume")});
            QVERIFY(!resumed.isEmpty());
            const QRegularExpressionMatch before =
                QRegularExpression(QStringLiteral("resumed: (\\d+) documents were read before"))
                    .match(m_lastErr);
            QVERIFY2(before.hasMatch(), qPrintable(m_lastErr));
            resumedFrom << before.captured(1).toInt();
            const auto got = reports(resumed);
            QCOMPARE(got.size(), expected.size());
            for (const auto &[name, bytes] : got)
                QVERIFY2(bytes == expected.at(name), qPrintable(name));
            QCOMPARE(stateFiles(), 0);
        }
        QVERIFY2(interrupted > 0, "no trial stopped the scan before it finished");
        // At least one resumed run skipped what an earlier one had read (SIGKILL: what the
        // last state saved before the kill; SIGINT: everything read before the signal).
        QVERIFY2(std::any_of(resumedFrom.begin(), resumedFrom.end(), [](int n) { return n > 0; }),
                 qPrintable(
                     QStringLiteral("resumed from %1").arg(QString::number(resumedFrom.value(0)))));
        qInfo("interrupted %d of 3 runs; resumed after %s documents", interrupted,
              qPrintable(QStringList([&] {
                             QStringList l;
                             for (int n : resumedFrom)
                                 l << QString::number(n);
                             return l;
                         }())
                             .join(QLatin1Char('/'))));
    }

    // A scan that completed but could not write its reports (here: --out lies under a file)
    // keeps its state: --resume writes the reports of the whole scan without reading again, and
    // only then is the state dropped. (A crash while the reports are written is the same case.)
    void unwrittenReportsResumeWithoutReading()
    {
        const QStringList scanArgs{QStringLiteral("--parallel"), QStringLiteral("2")};
        const QString whole =
            analyze(QStringLiteral("books"), QStringLiteral("whole-io"), scanArgs);
        QVERIFY(!whole.isEmpty());
        QCOMPARE(stateFiles(), 0);
        QFile blocker(m_dir.filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        const CliRun failed =
            cli(QStringList{QStringLiteral("analyze")} + target(QStringLiteral("books")) +
                QStringList{QStringLiteral("--full"), QStringLiteral("--top"),
                            QStringLiteral("500"), QStringLiteral("--out"),
                            m_dir.filePath(QStringLiteral("blocker/reports"))} +
                scanArgs);
        QCOMPARE(failed.exitCode, 3);
        QVERIFY2(failed.err.contains(QStringLiteral("cannot create the output directory")),
                 qPrintable(failed.err));
        QVERIFY2(failed.err.contains(QStringLiteral("with --resume writes the reports")),
                 qPrintable(failed.err));
        QCOMPARE(stateFiles(), 1);

        const QString resumed = analyze(QStringLiteral("books"), QStringLiteral("resumed-io"),
                                        scanArgs + QStringList{QStringLiteral("--resume")});
        QVERIFY(!resumed.isEmpty());
        const auto expected = reports(whole);
        const auto got = reports(resumed);
        QCOMPARE(got.size(), expected.size());
        for (const auto &[name, bytes] : got)
            QVERIFY2(bytes == expected.at(name), qPrintable(name));
        const QRegularExpressionMatch documents =
            QRegularExpression(QStringLiteral("\\ndocuments,(\\d+)\\r\\n"))
                .match(QString::fromUtf8(expected.at(QStringLiteral("summary.csv"))));
        QVERIFY(documents.hasMatch());
        QVERIFY2(m_lastErr.contains(QStringLiteral("resumed: %1 documents were read before")
                                        .arg(documents.captured(1))),
                 qPrintable(m_lastErr));
        QCOMPARE(stateFiles(), 0);
    }

    void resumeWithoutStateStartsAfresh()
    {
        const CliRun r =
            cli(QStringList{QStringLiteral("analyze")} + target(QStringLiteral("mixed")) +
                QStringList{QStringLiteral("--full"), QStringLiteral("--parallel"),
                            QStringLiteral("2"), QStringLiteral("--resume"),
                            QStringLiteral("--out"), m_dir.filePath(QStringLiteral("fresh"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(QStringLiteral("no interrupted scan to resume")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("parallel scan: 2 ranges of ObjectId")),
                 qPrintable(r.err));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("with --sample")
            << QStringList{QStringLiteral("--sample"), QStringLiteral("10"),
                           QStringLiteral("--parallel"), QStringLiteral("2")}
            << "--parallel reads every document";
        QTest::newRow("resume alone")
            << QStringList{QStringLiteral("--resume")} << "--resume continues a --parallel scan";
        QTest::newRow("zero ranges")
            << QStringList{QStringLiteral("--parallel"), QStringLiteral("0")} << "--parallel";
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliRun r = cli(
            QStringList{QStringLiteral("analyze")} + target(QStringLiteral("mixed")) +
            QStringList{QStringLiteral("--out"), m_dir.filePath(QStringLiteral("usage"))} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }
};

QTEST_GUILESS_MAIN(TestRangedScan)
#include "tst_rangedscan.moc"
