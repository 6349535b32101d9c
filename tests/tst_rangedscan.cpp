#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "GroundTruth.h"
#include "LiveDocuments.h"
#include "ReportTruth.h"
#include "ScanFixtures.h"
#include "SummaryCsv.h"

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

// Parallel, resumable full scans against a live server (mongod, and FerretDB): `analyze --full
// --parallel N` must write the same reports, byte for byte (but the run's seconds), for every N,
// on the demo data and on a collection whose _ids mix nine BSON types; the figures must equal
// the single-cursor scan's, and the test's own reading of the documents (plain libbson: counts,
// sizes, top-level arrays, the outliers under the thresholds the reports state); a scan killed
// (SIGKILL) or interrupted (SIGINT) at random points and resumed must end with the reports of
// one that never stopped; a complete scan whose reports could not be written keeps its state
// until they are.
class TestRangedScan : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_uri;
    QString m_lastErr; // what the last analyze() printed on stderr
    const QString kDatabase = QStringLiteral("oe_rangedscan");
    std::map<QString, QList<QByteArray>> m_documents; // by collection, as the server holds them

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

    // The ground truth: the documents of `collection` (those whose `tags` hold `tagged`, if
    // given: what the filter {tags: tagged} matches), read by the test, not the scan.
    fixtures::CollectionTruth groundTruth(const QString &collection,
                                          const QString &tagged = {}) const
    {
        const QList<QByteArray> &all = m_documents.at(collection);
        if (tagged.isEmpty())
            return fixtures::truthOf(all);
        const QByteArray value = fixtures::fieldOf(
            fixtures::bson(QStringLiteral("{\"v\": \"%1\"}").arg(tagged).toUtf8().constData()),
            QStringLiteral("v"));
        QList<QByteArray> matching;
        for (const QByteArray &doc : all)
            if (fixtures::elementsOf(doc, QStringLiteral("tags")).contains(value))
                matching << doc;
        return fixtures::truthOf(matching);
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
        // The ground truth, read back once; every document the test imported is there.
        const std::pair<const char *, QString> dumps[] = {
            {"books", m_dir.filePath(QStringLiteral("book_sales.bson"))}, {"mixed", mixed}};
        for (const auto &[collection, dump] : dumps) {
            const QString name = QLatin1String(collection);
            m_documents[name] =
                fixtures::documentsOf(fixtures::readCollection(m_uri, kDatabase, name));
            QCOMPARE(m_documents[name].size(), fixtures::readReference(dump).size());
        }
        QCOMPARE(m_documents[QStringLiteral("mixed")].size(), qsizetype(900));
    }

    void anyRangeCountGivesTheSameReports_data()
    {
        QTest::addColumn<QString>("collection");
        QTest::addColumn<QString>("tagged"); // if given, the filter {tags: tagged}
        QTest::newRow("demo book_sales") << "books" << QString();
        QTest::newRow("mixed _id types") << "mixed" << QString();
        QTest::newRow("mixed, filtered") << "mixed"
                                         << "t";
    }
    void anyRangeCountGivesTheSameReports()
    {
        QFETCH(QString, collection);
        QFETCH(QString, tagged);
        const QString filter =
            tagged.isEmpty() ? QString() : QStringLiteral("{\"tags\": \"%1\"}").arg(tagged);
        const QStringList filterArgs =
            filter.isEmpty() ? QStringList() : QStringList{QStringLiteral("--filter"), filter};
        const QString tag = collection + QString::number(qHash(filter));
        const fixtures::CollectionTruth expected = groundTruth(collection, tagged);
        const QString single = analyze(collection, tag + QStringLiteral("-plain"), filterArgs);
        QVERIFY(!single.isEmpty());
        const QString singleDiffers = fixtures::reportDifferences(single, expected);
        QVERIFY2(singleDiffers.isEmpty(), qPrintable(singleDiffers));
        std::map<QString, QByteArray> first;
        for (int n : {1, 2, 4, 7}) {
            const QString out =
                analyze(collection, tag + QStringLiteral("-p%1").arg(n),
                        filterArgs + QStringList{QStringLiteral("--parallel"), QString::number(n)});
            QVERIFY(!out.isEmpty());
            const auto files = reports(out);
            QCOMPARE(files.size(), std::size_t(10));
            // The ground truth, for every N (equal reports would share a wrong figure).
            const QString differs = fixtures::reportDifferences(out, expected);
            QVERIFY2(differs.isEmpty(), qPrintable(differs));
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
        const fixtures::CollectionTruth books = groundTruth(QStringLiteral("books"));
        const QString wholeDiffers = fixtures::reportDifferences(whole, books);
        QVERIFY2(wholeDiffers.isEmpty(), qPrintable(wholeDiffers));
        const QStringList paced{QStringLiteral("--max-docs-per-sec"), QStringLiteral("1500")};
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
                           scanArgs + paced);
            p.start();
            QVERIFY(p.waitForStarted());
            // Stop it once a typed range has saved documents, a random moment later. Paced at
            // 1,500 documents/s, the scan of 3,000 takes two seconds on any server, so the
            // signal lands while it runs.
            fixtures::waitForScanProgress(p, stateDir());
            QTest::qWait(int(QRandomGenerator::global()->bounded(150)));
            bool signalled = false;
            if (p.state() == QProcess::Running) {
                ::kill(pid_t(p.processId()), signal);
                signalled = true;
            }
            QVERIFY(p.state() == QProcess::NotRunning || p.waitForFinished(60000));
            if (signal == SIGINT && p.exitStatus() == QProcess::NormalExit && p.exitCode() != 0) {
                QCOMPARE(p.exitCode(), 130);
                QVERIFY2(p.readAllStandardError().contains("--resume"),
                         "the message names --resume");
            }
            // It finished first: exit 0, or the signal landed after the scan had written its
            // reports and dropped its state (a slow server can reach the end before the third
            // save is seen). Then the reports are the whole scan's.
            if ((p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0) ||
                stateFiles() == 0) {
                QCOMPARE(stateFiles(), 0);
                const auto finished = reports(out);
                QCOMPARE(finished.size(), expected.size());
                for (const auto &[name, bytes] : finished)
                    QVERIFY2(bytes == expected.at(name), qPrintable(name));
                continue;
            }
            interrupted += signalled;
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
            const QString differs = fixtures::reportDifferences(resumed, books);
            QVERIFY2(differs.isEmpty(), qPrintable(differs));
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
        const QString differs =
            fixtures::reportDifferences(resumed, groundTruth(QStringLiteral("books")));
        QVERIFY2(differs.isEmpty(), qPrintable(differs));
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

    // Issue 24.6: one flipped byte in a saved state is refused by --resume in one line naming
    // the file; without --resume the scan starts over and its saves replace the state.
    void damagedStateIsRefusedByResume()
    {
        QFile blocker(m_dir.filePath(QStringLiteral("blocker")));
        QVERIFY(blocker.open(QIODevice::WriteOnly)); // --out under a file: the state is kept
        blocker.close();
        const QStringList scan = target(QStringLiteral("mixed")) +
                                 QStringList{QStringLiteral("--full"), QStringLiteral("--parallel"),
                                             QStringLiteral("2"), QStringLiteral("--out")};
        CliRun r = cli(QStringList{QStringLiteral("analyze")} + scan +
                       QStringList{m_dir.filePath(QStringLiteral("blocker/damaged"))});
        QCOMPARE(r.exitCode, 3);
        QCOMPARE(stateFiles(), 1);
        QFile state(QDir(stateDir())
                        .filePath(QDir(stateDir())
                                      .entryList({QStringLiteral("*.oescan")}, QDir::Files)
                                      .value(0)));
        QVERIFY(state.open(QIODevice::ReadWrite));
        QByteArray bytes = state.readAll();
        bytes[bytes.size() / 2] = char(bytes[bytes.size() / 2] ^ 0x04);
        QVERIFY(state.seek(0) && state.write(bytes) == bytes.size());
        state.close();
        const QStringList out{m_dir.filePath(QStringLiteral("damaged"))};
        r = cli(QStringList{QStringLiteral("analyze")} + scan + out +
                QStringList{QStringLiteral("--resume")});
        QCOMPARE(r.exitCode, 2);
        const QString last = r.err.trimmed().split(QLatin1Char('\n')).constLast();
        QVERIFY2(last.startsWith(QStringLiteral("outlier-explorer-cli: ")) &&
                     last.contains(state.fileName()) &&
                     last.contains(QStringLiteral("run again without --resume")),
                 qPrintable(r.err));
        r = cli(QStringList{QStringLiteral("analyze")} + scan + out);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("not used; starting again")), qPrintable(r.err));
        QCOMPARE(stateFiles(), 0);
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
