#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "SummaryCsv.h"
#include "demo/DemoDataGenerator.h"

#include <QCryptographicHash>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <bson/bson.h>

#include <algorithm>
#include <set>
#include <unistd.h>

// outlier-explorer-cli end to end: the contract scripts rely on (files, columns, exit codes,
// one-line errors), checked against an independent libbson read of the same dump.
class TestCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_cli;
    QString m_books;

    using Run = CliRun;
    static Run cli(const QStringList &args) { return runCli(args, 120000); }
    static QList<QStringList> csv(const QString &path) { return csvtest::readFile(path); }
    static QString metric(const QString &dir, const QString &name)
    {
        return fixtures::SummaryCsv::read(dir).value(name);
    }
    static void checkOneLineError(const Run &r)
    {
        QVERIFY2(r.err.endsWith(QLatin1Char('\n')) && r.err.count(QLatin1Char('\n')) == 1,
                 qPrintable(r.err));
        QVERIFY2(r.err.startsWith(QStringLiteral("outlier-explorer-cli: ")), qPrintable(r.err));
    }

private slots:
    void initTestCase()
    {
        m_cli = qEnvironmentVariable("OE_CLI");
        QVERIFY2(QFile::exists(m_cli),
                 "set OE_CLI to the outlier-explorer-cli binary (CTest does)");
        const Run r = cli({QStringLiteral("demo-data"), QStringLiteral("--out"),
                           m_dir.filePath(QStringLiteral("demo"))});
        QCOMPARE(r.exitCode, 0);
        m_books = m_dir.filePath(QStringLiteral("demo/book_sales.bson"));
        for (const char *name : {"book_sales", "activity_feeds", "viral_posts"})
            QVERIFY(QFile::exists(
                m_dir.filePath(QStringLiteral("demo/%1.bson").arg(QLatin1String(name)))));
    }

    void demoDataIsDeterministic()
    {
        const QString again = m_dir.filePath(QStringLiteral("again"));
        QCOMPARE(cli({QStringLiteral("demo-data"), QStringLiteral("--out"), again}).exitCode, 0);
        for (const char *name : {"book_sales.bson", "activity_feeds.bson", "viral_posts.bson"}) {
            QFile a(m_dir.filePath(QStringLiteral("demo/") + QLatin1String(name)));
            QFile b(again + QLatin1Char('/') + QLatin1String(name));
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QCOMPARE(QCryptographicHash::hash(a.readAll(), QCryptographicHash::Sha256),
                     QCryptographicHash::hash(b.readAll(), QCryptographicHash::Sha256));
        }
        // The desktop app's demo (`outlier-explorer --demo`) is the same data.
        const QString gui = m_dir.filePath(QStringLiteral("gui-demo"));
        QStringList files;
        QString error;
        QVERIFY2(oe::DemoDataGenerator::ensureDemo(gui, &files, &error), qPrintable(error));
        QCOMPARE(files.size(), 6);
        for (const QString &file : files) {
            QFile a(file), b(again + QLatin1Char('/') + QFileInfo(file).fileName());
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QVERIFY2(a.readAll() == b.readAll(), qPrintable(file));
        }
    }

    // Every demo document is valid BSON with valid UTF-8 strings, none holding a NUL (a value
    // read twice by a libbson macro once wrote "PM-2\\0" under a 6-byte length).
    void demoStringsAreValidUtf8()
    {
        for (const QString &file : QDir(m_dir.filePath(QStringLiteral("demo")))
                                       .entryList({QStringLiteral("*.bson")}, QDir::Files)) {
            QFile f(m_dir.filePath(QStringLiteral("demo/") + file));
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            bson_reader_t *reader =
                bson_reader_new_from_data(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                          std::size_t(bytes.size()));
            int documents = 0;
            bool eof = false;
            while (const bson_t *doc = bson_reader_read(reader, &eof)) {
                std::size_t offset = 0;
                QVERIFY2(bson_validate(doc, BSON_VALIDATE_UTF8, &offset),
                         qPrintable(QStringLiteral("%1 document %2, byte %3")
                                        .arg(file)
                                        .arg(documents)
                                        .arg(offset)));
                ++documents;
            }
            bson_reader_destroy(reader);
            QVERIFY(eof);
            QVERIFY2(documents >= 300, qPrintable(file));
        }
    }

    void demoDataMatchesTheSeedStories()
    {
        const auto books = fixtures::readReference(m_books);
        QCOMPARE(books.size(), 2000);
        const auto over50 = std::count_if(books.begin(), books.end(),
                                          [](const auto &b) { return b.longestArrayLength > 50; });
        QVERIFY2(over50 > 20 && over50 < 200,
                 qPrintable(QString::number(over50))); // a few percent are outliers
        const auto feeds =
            fixtures::readReference(m_dir.filePath(QStringLiteral("demo/activity_feeds.bson")));
        const auto power = std::count_if(feeds.begin(), feeds.end(), [](const auto &f) {
            return f.longestArrayLength >= 10000;
        });
        QCOMPARE(qsizetype(power), feeds.size() / 100); // 1% of users
        const auto biggest =
            std::max_element(feeds.begin(), feeds.end(),
                             [](const auto &a, const auto &b) { return a.size < b.size; });
        QVERIFY(biggest->size > 15u * 1024 * 1024 && biggest->size < 16u * 1024 * 1024);
        const auto posts =
            fixtures::readReference(m_dir.filePath(QStringLiteral("demo/viral_posts.bson")));
        const auto viral =
            std::max_element(posts.begin(), posts.end(), [](const auto &a, const auto &b) {
                return a.longestArrayLength < b.longestArrayLength;
            });
        QVERIFY(viral->longestArrayLength >= 100000);
        QVERIFY(viral->id.startsWith(QStringLiteral("{\"$oid\":")));
    }

    void arrayAndSizeThresholdsListExactlyTheOutliers_data()
    {
        QTest::addColumn<int>("arrayThreshold");
        QTest::addColumn<int>("sizeThreshold");
        QTest::newRow("50 buyers, 2 KiB") << 50 << 2048;
        QTest::newRow("1000 buyers, 20 KiB") << 1000 << 20480;
        QTest::newRow("0 buyers, 0 bytes") << 0 << 0;
    }
    void arrayAndSizeThresholdsListExactlyTheOutliers()
    {
        QFETCH(int, arrayThreshold);
        QFETCH(int, sizeThreshold);
        const QString out =
            m_dir.filePath(QStringLiteral("exact_%1_%2").arg(arrayThreshold).arg(sizeThreshold));
        const Run r = cli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                           QStringLiteral("--out"), out, QStringLiteral("--array-threshold"),
                           QString::number(arrayThreshold), QStringLiteral("--size-threshold"),
                           QString::number(sizeThreshold), QStringLiteral("--full")});
        QCOMPARE(r.exitCode, 0);
        const auto refs = fixtures::readReference(m_books);
        std::set<QString> expectedArrays, expectedSizes, gotArrays, gotSizes;
        for (const auto &ref : refs) {
            if (ref.longestArrayLength > std::uint32_t(arrayThreshold))
                expectedArrays.insert(ref.id + QStringLiteral("|customers_purchased|") +
                                      QString::number(ref.longestArrayLength));
            if (ref.size > std::uint32_t(sizeThreshold))
                expectedSizes.insert(ref.id + QStringLiteral("|") + QString::number(ref.size));
        }
        const auto rows = csv(out + QStringLiteral("/outliers.csv"));
        QCOMPARE(rows.first().mid(0, 5),
                 QStringLiteral("_id,bson_size,path,array_length,reason").split(QLatin1Char(',')));
        for (const auto &row : rows.mid(1)) {
            if (row[4] == QLatin1String("array_absolute"))
                gotArrays.insert(row[0] + QLatin1Char('|') + row[2] + QLatin1Char('|') + row[3]);
            else if (row[4] == QLatin1String("size_absolute"))
                gotSizes.insert(row[0] + QLatin1Char('|') + row[1]);
        }
        QCOMPARE(gotArrays, expectedArrays);
        QCOMPARE(gotSizes, expectedSizes);
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("2000"));
        QCOMPARE(metric(out, QStringLiteral("size_threshold")), QString::number(sizeThreshold));
    }

    void summaryStatisticsMatchAnExactComputation()
    {
        const QString out = m_dir.filePath(QStringLiteral("summary"));
        const QString feeds = m_dir.filePath(QStringLiteral("demo/viral_posts.bson"));
        QCOMPARE(cli({QStringLiteral("analyze"), QStringLiteral("--dump"), feeds,
                      QStringLiteral("--out"), out})
                     .exitCode,
                 0);
        auto refs = fixtures::readReference(feeds);
        std::vector<std::uint64_t> sizes;
        std::uint64_t total = 0;
        for (const auto &r : refs) {
            sizes.push_back(r.size);
            total += r.size;
        }
        std::sort(sizes.begin(), sizes.end());
        auto nearestRank = [&](double q) {
            return sizes[std::size_t(std::ceil(q * double(sizes.size()))) - 1];
        };
        QCOMPARE(metric(out, QStringLiteral("size_min")).toULongLong(), sizes.front());
        QCOMPARE(metric(out, QStringLiteral("size_max")).toULongLong(), sizes.back());
        QCOMPARE(metric(out, QStringLiteral("size_total")).toULongLong(), total);
        QCOMPARE(metric(out, QStringLiteral("size_mean")),
                 QString::number(double(total) / double(sizes.size()), 'f', 2));
        for (auto [name, q] : {std::pair{"size_p50", 0.5},
                               {"size_p90", 0.9},
                               {"size_p95", 0.95},
                               {"size_p99", 0.99}}) {
            const double got = metric(out, QString::fromLatin1(name)).toDouble();
            const double exact = double(nearestRank(q));
            QVERIFY2(
                std::fabs(got - exact) <= 0.01 * exact,
                qPrintable(
                    QStringLiteral("%1: %2 vs %3").arg(QLatin1String(name)).arg(got).arg(exact)));
        }
        // The viral post is the top array outlier and shows in every report.
        const auto top = csv(out + QStringLiteral("/top_arrays.csv"));
        QCOMPARE(top[1][0], QStringLiteral("comments"));
        QCOMPARE(top[1][3], QStringLiteral("120000"));
        const auto recs = csv(out + QStringLiteral("/recommendations.csv"));
        QCOMPARE(recs[1][0], QStringLiteral("comments"));
        QVERIFY(!recs[1][8].isEmpty());
    }

    void sampleAndLimitModes()
    {
        const QString out = m_dir.filePath(QStringLiteral("modes"));
        QCOMPARE(
            cli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                 QStringLiteral("--out"), out, QStringLiteral("--limit"), QStringLiteral("100")})
                .exitCode,
            0);
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("100"));
        QCOMPARE(cli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                      QStringLiteral("--out"), out, QStringLiteral("--sample"),
                      QStringLiteral("250"), QStringLiteral("--seed"), QStringLiteral("5")})
                     .exitCode,
                 0);
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("250"));
        QVERIFY(
            metric(out, QStringLiteral("mode")).startsWith(QStringLiteral("sample 250 of 2000")));
        // A sample states its precision, and the sample a chosen precision of p99 needs.
        QCOMPARE(metric(out, QStringLiteral("p99_precision_target")), QStringLiteral("0.1"));
        QCOMPARE(metric(out, QStringLiteral("sample_for_p99_target")), QStringLiteral("38031"));
        const Run finer =
            cli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                 QStringLiteral("--out"), out, QStringLiteral("--sample"), QStringLiteral("250"),
                 QStringLiteral("--precision"), QStringLiteral("0.05")});
        QCOMPARE(finer.exitCode, 0);
        QCOMPARE(metric(out, QStringLiteral("p99_precision_target")), QStringLiteral("0.05"));
        // z^2 p (1 - p) / h^2 = 1.959964^2 * 0.99 * 0.01 / 0.0005^2, rounded up.
        QCOMPARE(metric(out, QStringLiteral("sample_for_p99_target")), QStringLiteral("152122"));
        QVERIFY2(finer.out.contains(QStringLiteral("a sample of %1 pins p99 to +/-0.05 "
                                                   "percentile points")
                                        .arg(QLocale::c().toString(152122))),
                 qPrintable(finer.out));
        QVERIFY2(finer.out.contains(QStringLiteral("95% CI")), qPrintable(finer.out));
        // A full scan is exact: no precision rows filled.
        QCOMPARE(cli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                      QStringLiteral("--out"), out})
                     .exitCode,
                 0);
        QCOMPARE(metric(out, QStringLiteral("sample_for_p99_target")), QString());
    }

    void gzipDump()
    {
        QFile f(m_books);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString gz = m_dir.filePath(QStringLiteral("books.bson.gz"));
        QVERIFY(fixtures::writeGzip(gz, f.readAll()));
        const QString out = m_dir.filePath(QStringLiteral("gz"));
        QCOMPARE(cli({QStringLiteral("analyze"), QStringLiteral("--dump"), gz,
                      QStringLiteral("--out"), out})
                     .exitCode,
                 0);
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("2000"));
    }

    // An option that only one method reads chooses that method when --method is not given.
    void methodOptionChoosesItsMethod_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("method");
        QTest::newRow("none") << QStringList{} << QStringLiteral("iqr");
        QTest::newRow("percentile")
            << QStringList{QStringLiteral("--percentile"), QStringLiteral("90")}
            << QStringLiteral("percentile");
        QTest::newRow("mad-z") << QStringList{QStringLiteral("--mad-z"), QStringLiteral("2.5")}
                               << QStringLiteral("mad");
        QTest::newRow("preset") << QStringList{QStringLiteral("--preset"), QStringLiteral("atlas")}
                                << QStringLiteral("absolute");
        QTest::newRow("fence-k keeps the default")
            << QStringList{QStringLiteral("--fence-k"), QStringLiteral("3")}
            << QStringLiteral("iqr");
    }
    void methodOptionChoosesItsMethod()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, method);
        const QString out = m_dir.filePath(QStringLiteral("method"));
        const Run r = cli(QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                                      QStringLiteral("--out"), out, QStringLiteral("--quiet")} +
                          extra);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(metric(out, QStringLiteral("method")), method);
    }

    void usageErrorsExitTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("no command") << QStringList{} << QStringLiteral("usage");
        QTest::newRow("unknown command")
            << QStringList{QStringLiteral("frobnicate")} << QStringLiteral("frobnicate");
        QTest::newRow("no source")
            << QStringList{QStringLiteral("analyze"), QStringLiteral("--out"), QStringLiteral("x")}
            << QStringLiteral("--dump");
        QTest::newRow("no out") << QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"),
                                               QStringLiteral("x.bson")}
                                << QStringLiteral("--out");
        QTest::newRow("bad number")
            << QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"),
                           QStringLiteral("x"),       QStringLiteral("--out"),
                           QStringLiteral("y"),       QStringLiteral("--sample"),
                           QStringLiteral("ten")}
            << QStringLiteral("--sample");
        QTest::newRow("negative threshold")
            << QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"),
                           QStringLiteral("x"),       QStringLiteral("--out"),
                           QStringLiteral("y"),       QStringLiteral("--array-threshold"),
                           QStringLiteral("-5")}
            << QStringLiteral("--array-threshold");
        QTest::newRow("bad method")
            << QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"),
                           QStringLiteral("x"),       QStringLiteral("--out"),
                           QStringLiteral("y"),       QStringLiteral("--method"),
                           QStringLiteral("zscore")}
            << QStringLiteral("zscore");
        QTest::newRow("two modes")
            << QStringList{QStringLiteral("analyze"), QStringLiteral("--dump"),
                           QStringLiteral("x"),       QStringLiteral("--out"),
                           QStringLiteral("y"),       QStringLiteral("--full"),
                           QStringLiteral("--limit"), QStringLiteral("3")}
            << QStringLiteral("choose one");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("analyze"), QStringLiteral("--bogus")}
            << QStringLiteral("bogus");
        // Issue 10.10: every numeric option has a range; NaN and infinities are not numbers.
        const QStringList analyze{QStringLiteral("analyze"), QStringLiteral("--dump"),
                                  QStringLiteral("x"), QStringLiteral("--out"),
                                  QStringLiteral("y")};
        const auto option = [&](const char *tag, const QStringList &extra, const char *mentions) {
            QTest::newRow(tag) << analyze + extra << QString::fromLatin1(mentions);
        };
        option("fence-k nan", {QStringLiteral("--fence-k"), QStringLiteral("nan")},
               "--fence-k expects a number from 0 to 100, got 'nan'");
        option("mad-z nan",
               {QStringLiteral("--method"), QStringLiteral("mad"), QStringLiteral("--mad-z"),
                QStringLiteral("nan")},
               "--mad-z expects a number");
        option("percentile nan", {QStringLiteral("--percentile"), QStringLiteral("nan")},
               "--percentile expects a number from 0 to 100");
        option("percentile inf", {QStringLiteral("--percentile"), QStringLiteral("inf")},
               "--percentile");
        option("percentile 101", {QStringLiteral("--percentile"), QStringLiteral("101")},
               "--percentile");
        option("threads 20000", {QStringLiteral("--threads"), QStringLiteral("20000")},
               "--threads expects a whole number from 1 to 256, got '20000'");
        option("top too large", {QStringLiteral("--top"), QStringLiteral("99999999999")}, "--top");
        option("target over 16 MiB",
               {QStringLiteral("--target-primary-bytes"), QStringLiteral("20000000")},
               "--target-primary-bytes");
        option("sample too large", {QStringLiteral("--sample"), QStringLiteral("1000000000000")},
               "--sample");
        // Issue 35: the window's box stops at 2,147,483,647; the CLI took any number. One
        // rule (ThresholdRange), one message naming the option and the limit.
        option("size threshold too large",
               {QStringLiteral("--size-threshold"), QStringLiteral("99999999999")},
               "--size-threshold 99999999999 is above the largest threshold, 2,147,483,647.");
        option("array threshold too large",
               {QStringLiteral("--array-threshold"), QStringLiteral("2147483648")},
               "--array-threshold 2147483648 is above the largest threshold, 2,147,483,647.");
        QTest::newRow("watch size threshold too large")
            << QStringList{QStringLiteral("watch"),
                           QStringLiteral("--uri"),
                           QStringLiteral("mongodb://127.0.0.1:1"),
                           QStringLiteral("--db"),
                           QStringLiteral("d"),
                           QStringLiteral("--collection"),
                           QStringLiteral("c"),
                           QStringLiteral("--size-threshold"),
                           QStringLiteral("99999999999")}
            << QStringLiteral("--size-threshold 99999999999 is above the largest threshold");
        option("precision of a whole point", {QStringLiteral("--precision"), QStringLiteral("1")},
               "--precision expects a number from 0.0001 to 0.99, got '1'");
        QTest::newRow("selection timeout 0")
            << QStringList{QStringLiteral("test-connection"), QStringLiteral("--uri"),
                           QStringLiteral("mongodb://127.0.0.1:1"),
                           QStringLiteral("--server-selection-timeout-ms"), QStringLiteral("0")}
            << QStringLiteral("--server-selection-timeout-ms expects a whole number from 1 to "
                              "3600000");
        // Issue 10.11: a repeated or contradicting option is refused, never resolved silently.
        option("sample twice",
               {QStringLiteral("--sample"), QStringLiteral("10"), QStringLiteral("--sample"),
                QStringLiteral("20")},
               "--sample is given more than once ('10', '20')");
        option("method mad, preset atlas",
               {QStringLiteral("--method"), QStringLiteral("mad"), QStringLiteral("--preset"),
                QStringLiteral("atlas")},
               "--preset goes with --method absolute, not --method mad");
        option("percentile with iqr",
               {QStringLiteral("--method"), QStringLiteral("iqr"), QStringLiteral("--percentile"),
                QStringLiteral("95")},
               "--percentile goes with --method percentile");
        option("percentile and mad-z",
               {QStringLiteral("--percentile"), QStringLiteral("95"), QStringLiteral("--mad-z"),
                QStringLiteral("3")},
               "--percentile and --mad-z belong to different methods");
        QTest::newRow("split batch twice")
            << QStringList{QStringLiteral("split"), QStringLiteral("--dump"),
                           QStringLiteral("x"),     QStringLiteral("--batch"),
                           QStringLiteral("1"),     QStringLiteral("--batch"),
                           QStringLiteral("2")}
            << QStringLiteral("--batch is given more than once");
        QTest::newRow("split max-docs-per-sec nan")
            << QStringList{QStringLiteral("split"), QStringLiteral("--dump"),
                           QStringLiteral("x"),     QStringLiteral("--field"),
                           QStringLiteral("a"),     QStringLiteral("--keep"),
                           QStringLiteral("1"),     QStringLiteral("--max-docs-per-sec"),
                           QStringLiteral("nan")}
            << QStringLiteral("--max-docs-per-sec");
        QTest::newRow("demo-data docs too many")
            << QStringList{QStringLiteral("demo-data"),  QStringLiteral("--out"),
                           QStringLiteral("x"),          QStringLiteral("--dataset"),
                           QStringLiteral("book_sales"), QStringLiteral("--docs"),
                           QStringLiteral("99999999999")}
            << QStringLiteral("--docs");
    }
    void usageErrorsExitTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const Run r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(mentions), qPrintable(r.err));
        if (!args.isEmpty())
            checkOneLineError(r);
    }

    void everyCommandsHelpNamesTheCommand()
    {
        // The man page and bash completion are generated from these texts (cli-docs.py).
        const Run top = cli({QStringLiteral("--help")});
        QCOMPARE(top.exitCode, 0);
        const QString list =
            top.out.section(QStringLiteral("commands:\n"), 1).section(QStringLiteral("\n\n"), 0, 0);
        QStringList commands;
        for (const QString &line : list.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            commands << line.trimmed().section(QLatin1Char(' '), 0, 0);
        QCOMPARE(commands.size(), 15);
        for (const QString &command : commands) {
            const Run r = cli({command, QStringLiteral("--help")});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.out.startsWith(
                         QStringLiteral("usage: outlier-explorer-cli %1 [options]\n").arg(command)),
                     qPrintable(r.out.left(200)));
            QVERIFY2(r.out.contains(QLatin1String("\n  -h, --help ")), qPrintable(r.out));
        }
    }

    void ioErrorsExitThree()
    {
        Run r = cli({QStringLiteral("analyze"), QStringLiteral("--dump"),
                     m_dir.filePath(QStringLiteral("nope.bson")), QStringLiteral("--out"),
                     m_dir.filePath(QStringLiteral("o"))});
        QCOMPARE(r.exitCode, 3);
        checkOneLineError(r);
        QVERIFY(r.err.contains(QStringLiteral("nope.bson")));
        r = cli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_dir.path(),
                 QStringLiteral("--out"), m_dir.filePath(QStringLiteral("o"))});
        QCOMPARE(r.exitCode, 3);
        QVERIFY(r.err.contains(QStringLiteral("is a directory")));
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("o/summary.csv"))));
        // An output path that cannot be created.
        r = cli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                 QStringLiteral("--out"), m_books + QStringLiteral("/sub")});
        QCOMPARE(r.exitCode, 3);
        checkOneLineError(r);
    }

    void unreadableFileExitsThree()
    {
        const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
        const QString locked = m_dir.filePath(QStringLiteral("locked.bson"));
        QVERIFY(QFile::copy(m_books, locked));
        QFile::setPermissions(locked, QFileDevice::Permissions());
        QFile::setPermissions(m_dir.path(),
                              QFileDevice::Permissions(0x7777)); // let another user reach it
        Run r{};
        if (::geteuid() == 0) {
            // setpriv (util-linux, installed by setup-debian.sh) drops root's privileges.
            QVERIFY2(!setpriv.isEmpty(), "running as root without setpriv (util-linux)");
            r = runCliThrough(setpriv,
                              {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                               QStringLiteral("--clear-groups"), m_cli},
                              {QStringLiteral("analyze"), QStringLiteral("--dump"), locked,
                               QStringLiteral("--out"), QStringLiteral("/tmp")});
        } else {
            r = cli({QStringLiteral("analyze"), QStringLiteral("--dump"), locked,
                     QStringLiteral("--out"), m_dir.filePath(QStringLiteral("o"))});
        }
        QCOMPARE(r.exitCode, 3);
        checkOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("Permission denied")), qPrintable(r.err));
    }

    void corruptDumpExitsFourAndReportsThePrefix()
    {
        QFile f(m_books);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray bytes = f.readAll();
        const auto refs = fixtures::readReference(m_books);
        qint64 offset = 0;
        for (int i = 0; i < 1234; ++i)
            offset += refs[i].size;
        const QByteArray truncated = bytes.left(int(offset) + 10);
        const QString bad = m_dir.filePath(QStringLiteral("truncated.bson"));
        QVERIFY(fixtures::writeFile(bad, truncated));
        const QString out = m_dir.filePath(QStringLiteral("partial"));
        const Run r = cli({QStringLiteral("analyze"), QStringLiteral("--dump"), bad,
                           QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 4);
        checkOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("truncated.bson")) &&
                     r.err.contains(QStringLiteral("document #1234")) &&
                     r.err.contains(QStringLiteral("byte offset %1").arg(offset)),
                 qPrintable(r.err));
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("1234"));
        QVERIFY(metric(out, QStringLiteral("status")).startsWith(QStringLiteral("failed")));

        // A corrupt element inside a document: same contract, analysed with both threads.
        QByteArray inner = bytes;
        inner[int(offset) + 4] = char(0x55); // first element's type byte becomes invalid
        QVERIFY(fixtures::writeFile(bad, inner));
        const Run r2 =
            cli({QStringLiteral("analyze"), QStringLiteral("--dump"), bad, QStringLiteral("--out"),
                 out, QStringLiteral("--threads"), QStringLiteral("2")});
        QCOMPARE(r2.exitCode, 4);
        checkOneLineError(r2);
        QVERIFY2(r2.err.contains(QStringLiteral("document #1234")), qPrintable(r2.err));
        QCOMPARE(metric(out, QStringLiteral("documents")), QStringLiteral("1234"));

        // An empty file.
        QVERIFY(fixtures::writeFile(bad, QByteArray()));
        const Run r3 = cli({QStringLiteral("analyze"), QStringLiteral("--dump"), bad,
                            QStringLiteral("--out"), out});
        QCOMPARE(r3.exitCode, 4);
        QVERIFY(r3.err.contains(QStringLiteral("empty file")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
