#include "CliRunner.h"
#include "LiveDocuments.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <map>

// The live round trip on each demo dataset against a real FerretDB server: split, verify,
// an independent check of every document and page, rollback, and every document is again
// byte for byte what it was. The three datasets cover the three shapes of the seed texts:
// book buyers (keep 50), activity feeds with a count and a pages field and a document near
// 16 MB, and viral posts with keep 0 (every comment moves; those trims share statements).
class TestDemoRoundTrip : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_uri;
    const QString kDatabase = QStringLiteral("oe_roundtrip");

    using Run = CliRun;
    static Run cli(const QStringList &args) { return runCli(args, 800000); }
    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), kDatabase,
                QStringLiteral("--collection"), collection};
    }
    std::map<QByteArray, QByteArray> read(const QString &collection) const
    {
        return fixtures::readCollection(m_uri, kDatabase, collection);
    }

private slots:
    void initTestCase()
    {
        m_uri = fixtures::liveUri();
        QVERIFY(!m_uri.isEmpty());
    }

    void roundTrip_data()
    {
        QTest::addColumn<QString>("dataset");
        QTest::addColumn<int>("docs");
        QTest::addColumn<QString>("arrayField");
        QTest::addColumn<int>("keep");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<QString>("countField"); // also passed as --count-field when set
        QTest::addColumn<QString>("pagesField"); // also passed as --pages-field when set
        QTest::addColumn<int>("minComments");    // > 0: --filter on comment_count >= this
        QTest::newRow("book_sales") << "book_sales" << 400 << "customers_purchased" << 50 << 100
                                    << QString() << QString() << 0;
        // 200 users: two power users, one of them the ~15.5 MB account.
        QTest::newRow("activity_feeds")
            << "activity_feeds" << 200 << "activities" << 500 << 2000 << "activityCount"
            << "overflowPages" << 0;
        // 300 posts; only the popular ones and the viral post (120,000 comments) are split.
        QTest::newRow("viral_posts, keep 0")
            << "viral_posts" << 300 << "comments" << 0 << 1000 << QString() << QString() << 100;
    }

    void roundTrip()
    {
        QFETCH(QString, dataset);
        QFETCH(int, docs);
        QFETCH(QString, arrayField);
        QFETCH(int, keep);
        QFETCH(int, pageSize);
        QFETCH(QString, countField);
        QFETCH(QString, pagesField);
        QFETCH(int, minComments);

        Run r = cli({QStringLiteral("demo-data"), QStringLiteral("--out"), m_dir.path(),
                     QStringLiteral("--dataset"), dataset, QStringLiteral("--docs"),
                     QString::number(docs)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString collection = QStringLiteral("rt_") + dataset;
        const QString overflow = collection + QStringLiteral("_overflow");
        r = cli(QStringList{QStringLiteral("import")} + target(collection) +
                QStringList{QStringLiteral("--dump"),
                            m_dir.filePath(dataset + QStringLiteral(".bson")),
                            QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto before = read(collection);
        QCOMPARE(int(before.size()), docs);

        QStringList options{QStringLiteral("--field"),     arrayField,
                            QStringLiteral("--keep"),      QString::number(keep),
                            QStringLiteral("--page-size"), QString::number(pageSize)};
        if (!countField.isEmpty())
            options << QStringLiteral("--count-field") << countField;
        if (!pagesField.isEmpty())
            options << QStringLiteral("--pages-field") << pagesField;
        if (minComments > 0)
            options << QStringLiteral("--filter")
                    << QStringLiteral("{\"comment_count\": {\"$gte\": %1}}").arg(minComments);

        // Which documents the split must take, from the documents themselves.
        std::map<QByteArray, QList<QByteArray>> expectSplit;
        for (const auto &[id, doc] : before) {
            const QList<QByteArray> all = fixtures::elementsOf(doc, arrayField);
            if (all.size() > keep &&
                (minComments == 0 ||
                 fixtures::numberOf(doc, QStringLiteral("comment_count")) >= minComments))
                expectSplit[id] = all;
        }
        QVERIFY(expectSplit.size() >= 2);

        r = cli(QStringList{QStringLiteral("split")} + target(collection) + options +
                QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QRegularExpressionMatch summary =
            QRegularExpression(QStringLiteral("^split ([0-9,]+) document\\(s\\)"),
                               QRegularExpression::MultilineOption)
                .match(r.out);
        QVERIFY2(summary.hasMatch(), qPrintable(r.out));
        QCOMPARE(summary.captured(1).remove(QLatin1Char(',')).toInt(), int(expectSplit.size()));

        r = cli(QStringList{QStringLiteral("verify")} + target(collection) +
                QStringList{QStringLiteral("--field"), arrayField});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.out.contains(QStringLiteral("checked: %1,").arg(expectSplit.size())) &&
                     r.out.contains(QStringLiteral("mismatches: 0")),
                 qPrintable(r.out));

        // Independently: pages per parent, numbered 0.. without gaps, none over the page size.
        std::map<QByteArray, std::map<std::int64_t, QList<QByteArray>>> pages;
        for (const auto &[pageId, page] : read(overflow)) {
            const QByteArray parent = fixtures::fieldOf(page, QStringLiteral("parent_id"));
            const std::int64_t n = fixtures::numberOf(page, QStringLiteral("page"));
            QVERIFY2(!pages[parent].count(n), "a duplicate overflow page");
            const QList<QByteArray> items = fixtures::elementsOf(page, arrayField);
            QVERIFY(!items.isEmpty() && items.size() <= pageSize);
            pages[parent][n] = items;
        }
        const auto after = read(collection);
        QCOMPARE(after.size(), before.size());
        for (const auto &[id, doc] : after) {
            const auto split = expectSplit.find(id);
            if (split == expectSplit.end()) {
                QCOMPARE(doc, before.at(id)); // not split: untouched
                QVERIFY(!pages.count(id));
                continue;
            }
            QList<QByteArray> all = fixtures::elementsOf(doc, arrayField);
            QCOMPARE(all.size(), keep);
            QCOMPARE(all, split->second.mid(0, keep));
            QCOMPARE(fixtures::fieldOf(doc, QStringLiteral("has_extras")),
                     QByteArray("\x08\x01", 2));
            std::int64_t expectPage = 0;
            for (const auto &[n, items] : pages[id]) {
                QCOMPARE(n, expectPage++);
                all += items;
            }
            QCOMPARE(all, split->second); // every element, once, in order
            if (!countField.isEmpty())
                QCOMPARE(fixtures::numberOf(doc, countField), std::int64_t(split->second.size()));
            if (!pagesField.isEmpty())
                QCOMPARE(fixtures::numberOf(doc, pagesField), std::int64_t(pages[id].size()));
        }
        QCOMPARE(pages.size(), expectSplit.size());

        r = cli(QStringList{QStringLiteral("rollback")} + target(collection) +
                QStringList{QStringLiteral("--field"), arrayField, QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const auto restored = read(collection);
        QCOMPARE(restored.size(), before.size());
        for (const auto &[id, doc] : before)
            QVERIFY2(restored.count(id) && restored.at(id) == doc,
                     "a document differs from its original after the rollback");
        QVERIFY(read(overflow).empty());
    }
};

QTEST_GUILESS_MAIN(TestDemoRoundTrip)
#include "tst_demoroundtrip.moc"
