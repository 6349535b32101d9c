#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <bson/bson.h>

// `split`, `verify` and `rollback` on dump files, end to end through the CLI.
class TestOfflineSplit : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_cli;

    using Run = CliRun;
    static Run cli(const QStringList &args) { return runCli(args, 120000); }
    static QList<QByteArray> documents(const QString &path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        const QByteArray all = f.readAll();
        QList<QByteArray> docs;
        qsizetype at = 0;
        while (at + 4 <= all.size()) {
            qint32 len = 0;
            std::memcpy(&len, all.constData() + at, 4);
            docs << all.mid(at, len);
            at += len;
        }
        return docs;
    }
    static QByteArray hashOf(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly)
                   ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                   : QByteArray();
    }

private slots:
    void initTestCase()
    {
        m_cli = qEnvironmentVariable("OE_CLI");
        QVERIFY(QFile::exists(m_cli));
        QCOMPARE(cli({QStringLiteral("demo-data"), QStringLiteral("--out"),
                      m_dir.filePath(QStringLiteral("demo"))})
                     .exitCode,
                 0);
    }

    void roundTripOnEveryDemoDataset_data()
    {
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("keep");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("book sales, keep 50")
            << "book_sales"
            << "customers_purchased"
            << "50"
            << QStringList{QStringLiteral("--items-field"),
                           QStringLiteral("customers_purchased_extra")};
        QTest::newRow("activity feeds, keep 1000, count field")
            << "activity_feeds"
            << "activities"
            << "1000"
            << QStringList{QStringLiteral("--count-field"), QStringLiteral("activityCount"),
                           QStringLiteral("--pages-field"), QStringLiteral("overflowPages")};
        QTest::newRow("viral posts, keep 0")
            << "viral_posts"
            << "comments"
            << "0" << QStringList{QStringLiteral("--flag-field"), QStringLiteral("outlier")};
    }
    void roundTripOnEveryDemoDataset()
    {
        QFETCH(QString, dataset);
        QFETCH(QString, field);
        QFETCH(QString, keep);
        QFETCH(QStringList, extra);
        const QString input = m_dir.filePath(QStringLiteral("demo/%1.bson").arg(dataset));
        const QString out = m_dir.filePath(QStringLiteral("split_") + dataset);
        const QStringList common =
            QStringList{QStringLiteral("--field"),     field,
                        QStringLiteral("--keep"),      keep,
                        QStringLiteral("--page-size"), QStringLiteral("500")} +
            extra;
        Run r = cli(QStringList{QStringLiteral("split"), QStringLiteral("--dump"), input,
                                QStringLiteral("--out-dir"), out} +
                    common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString primary = out + QLatin1Char('/') + dataset + QStringLiteral(".bson");
        const QString overflow =
            out + QLatin1Char('/') + dataset + QStringLiteral("_overflow.bson");
        QVERIFY(QFile::exists(primary) && QFile::exists(overflow));

        // Documents that are not split are byte-identical; split ones keep at most `keep`.
        const auto before = documents(input);
        const auto after = documents(primary);
        QCOMPARE(after.size(), before.size());
        const auto refsBefore = fixtures::readReference(input);
        const auto refsAfter = fixtures::readReference(primary);
        std::uint64_t moved = 0;
        for (int i = 0; i < before.size(); ++i) {
            if (refsBefore[i].longestArrayLength <= keep.toUInt() ||
                refsBefore[i].longestArrayPath != field) {
                QCOMPARE(after[i], before[i]);
            } else {
                QVERIFY(refsAfter[i].longestArrayLength <= keep.toUInt() ||
                        refsAfter[i].longestArrayPath != field);
                moved += refsBefore[i].longestArrayLength - keep.toUInt();
            }
        }
        QVERIFY(moved > 0);
        QVERIFY(r.out.contains(
            QStringLiteral("elements to move: %1").arg(QLocale::c().toString(qulonglong(moved)))));

        r = cli(QStringList{QStringLiteral("verify"), QStringLiteral("--dump"), primary} + common);
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("mismatches: 0")),
                 qPrintable(r.out + r.err));

        const QString back = m_dir.filePath(QStringLiteral("back_") + dataset);
        r = cli(QStringList{QStringLiteral("rollback"), QStringLiteral("--dump"), primary,
                            QStringLiteral("--out-dir"), back} +
                common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(hashOf(back + QLatin1Char('/') + dataset + QStringLiteral(".bson")),
                 hashOf(input));
    }

    void verifyFindsTampering()
    {
        const QString input = m_dir.filePath(QStringLiteral("demo/book_sales.bson"));
        const QString out = m_dir.filePath(QStringLiteral("tamper"));
        const QStringList common = {
            QStringLiteral("--field"),     QStringLiteral("customers_purchased"),
            QStringLiteral("--keep"),      QStringLiteral("50"),
            QStringLiteral("--page-size"), QStringLiteral("100")};
        QCOMPARE(cli(QStringList{QStringLiteral("split"), QStringLiteral("--dump"), input,
                                 QStringLiteral("--out-dir"), out} +
                     common)
                     .exitCode,
                 0);
        // Drop one overflow page: its elements are lost, and verify must say whose.
        const QString overflow = out + QStringLiteral("/book_sales_overflow.bson");
        auto pages = documents(overflow);
        QVERIFY(pages.size() > 3);
        pages.removeAt(2);
        QVERIFY(fixtures::writeFile(overflow, fixtures::concat(pages)));
        const Run r = cli(QStringList{QStringLiteral("verify"), QStringLiteral("--dump"),
                                      out + QStringLiteral("/book_sales.bson")} +
                          common);
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.out.contains(QStringLiteral("mismatches: 1")), qPrintable(r.out));
        // And rollback refuses to write anything from it.
        const Run back =
            cli(QStringList{QStringLiteral("rollback"), QStringLiteral("--dump"),
                            out + QStringLiteral("/book_sales.bson"), QStringLiteral("--out-dir"),
                            out + QStringLiteral("/back")} +
                common);
        QCOMPARE(back.exitCode, 4);
        QVERIFY(!QFile::exists(out + QStringLiteral("/back/book_sales.bson")));
    }

    void dryRunWritesThePlan()
    {
        const QString out = m_dir.filePath(QStringLiteral("plan"));
        const Run r = cli({QStringLiteral("split"), QStringLiteral("--dump"),
                           m_dir.filePath(QStringLiteral("demo/book_sales.bson")),
                           QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                           QStringLiteral("--keep"), QStringLiteral("50"),
                           QStringLiteral("--dry-run"), QStringLiteral("--out-dir"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto rows = csvtest::readFile(out + QStringLiteral("/plan.csv"));
        QCOMPARE(rows.first(), QStringLiteral("_id,size_before,size_after,length,kept,moved,pages")
                                   .split(QLatin1Char(',')));
        const auto refs =
            fixtures::readReference(m_dir.filePath(QStringLiteral("demo/book_sales.bson")));
        const auto affected = std::count_if(
            refs.begin(), refs.end(), [](const auto &d) { return d.longestArrayLength > 50; });
        QCOMPARE(rows.size() - 1, qsizetype(affected));
        QVERIFY(!QFile::exists(out + QStringLiteral("/book_sales.bson")));
    }

    void badConfigurationIsRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("negative keep")
            << QStringList{QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                           QStringLiteral("--keep"), QStringLiteral("-1")}
            << 2 << "--keep";
        QTest::newRow("page size 0")
            << QStringList{QStringLiteral("--field"),     QStringLiteral("customers_purchased"),
                           QStringLiteral("--keep"),      QStringLiteral("5"),
                           QStringLiteral("--page-size"), QStringLiteral("0")}
            << 2 << "--page-size";
        QTest::newRow("flag is the field")
            << QStringList{QStringLiteral("--field"),      QStringLiteral("customers_purchased"),
                           QStringLiteral("--keep"),       QStringLiteral("5"),
                           QStringLiteral("--flag-field"), QStringLiteral("customers_purchased")}
            << 2 << "collides";
        QTest::newRow("not an array")
            << QStringList{QStringLiteral("--field"), QStringLiteral("title"),
                           QStringLiteral("--keep"), QStringLiteral("5")}
            << 4 << "not an array";
        QTest::newRow("no keep") << QStringList{QStringLiteral("--field"),
                                                QStringLiteral("customers_purchased")}
                                 << 2 << "--keep";
    }
    void badConfigurationIsRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, mentions);
        const QString out = m_dir.filePath(QStringLiteral("bad_") +
                                           QString::fromLatin1(QTest::currentDataTag())
                                               .replace(QLatin1Char(' '), QLatin1Char('_')));
        const Run r = cli(QStringList{QStringLiteral("split"), QStringLiteral("--dump"),
                                      m_dir.filePath(QStringLiteral("demo/book_sales.bson")),
                                      QStringLiteral("--out-dir"), out} +
                          args);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(mentions) && r.err.count(QLatin1Char('\n')) == 1,
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(out + QStringLiteral("/book_sales.bson")));
    }
};

QTEST_GUILESS_MAIN(TestOfflineSplit)
#include "tst_offlinesplit.moc"
