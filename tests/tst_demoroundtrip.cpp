#include "LiveCollectionSource.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <bson/bson.h>

#include <map>

using namespace oe;

// The live round trip on each demo dataset against a real FerretDB server: split, verify,
// an independent check of every document and page, rollback, and every document is again
// byte for byte what it was. The three datasets cover the three shapes of the seed texts:
// book buyers (keep 50), activity feeds with a count and a pages field and a document near
// 16 MB, and viral posts with keep 0 (every comment moves; those trims share statements).
class TestDemoRoundTrip : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_cli, m_uri;
    const QString kDatabase = QStringLiteral("oe_roundtrip");

    struct Run
    {
        int exitCode;
        QString out, err;
    };
    Run cli(const QStringList &args)
    {
        QProcess p;
        p.start(m_cli, args);
        if (!p.waitForFinished(800000))
            qFatal("CLI hung: %s", qPrintable(args.join(QLatin1Char(' '))));
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), kDatabase,
                QStringLiteral("--collection"), collection};
    }

    // Every document of a collection by _id (the raw value: type byte and value bytes).
    std::map<QByteArray, QByteArray> read(const QString &collection)
    {
        std::map<QByteArray, QByteArray> docs;
        LiveQuery q;
        q.database = kDatabase;
        q.collection = collection;
        ConnectionSettings s;
        s.uri = m_uri;
        LiveCollectionSource source(s, q);
        SourceError error;
        if (!source.open(&error))
            return docs;
        DocumentBatch batch;
        while (source.read(batch, 1 << 20, &error) == DocumentSource::ReadResult::Batch)
            for (const auto &e : batch.documents) {
                const QByteArray doc(reinterpret_cast<const char *>(batch.data(e)),
                                     qsizetype(e.length));
                docs[field(doc, QStringLiteral("_id"))] = doc;
            }
        return docs;
    }
    static QByteArray rawValue(const bson_iter_t *it)
    {
        const std::uint32_t start = it->key + std::uint32_t(std::strlen(bson_iter_key(it))) + 1;
        QByteArray raw(1, char(bson_iter_type(it)));
        raw.append(reinterpret_cast<const char *>(it->raw + start),
                   qsizetype(it->next_off - start));
        return raw;
    }
    static bool find(const QByteArray &doc, const QString &key, bson_iter_t *it)
    {
        bson_t b;
        const QByteArray k = key.toUtf8();
        return bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                std::size_t(doc.size())) &&
               bson_iter_init_find(it, &b, k.constData());
    }
    static QByteArray field(const QByteArray &doc, const QString &key)
    {
        bson_iter_t it;
        return find(doc, key, &it) ? rawValue(&it) : QByteArray();
    }
    static std::int64_t number(const QByteArray &doc, const QString &key)
    {
        bson_iter_t it;
        return find(doc, key, &it) && BSON_ITER_HOLDS_NUMBER(&it) ? bson_iter_as_int64(&it) : -1;
    }
    static QList<QByteArray> elements(const QByteArray &doc, const QString &key)
    {
        QList<QByteArray> out;
        bson_iter_t it, e;
        if (find(doc, key, &it) && BSON_ITER_HOLDS_ARRAY(&it) && bson_iter_recurse(&it, &e))
            while (bson_iter_next(&e))
                out << rawValue(&e);
        return out;
    }

private slots:
    void initTestCase()
    {
        m_cli = qEnvironmentVariable("OE_CLI");
        QFile env(qEnvironmentVariable("OE_LIVE_DIR") + QStringLiteral("/plain/env"));
        QVERIFY(env.open(QIODevice::ReadOnly));
        for (const QByteArray &line : env.readAll().split('\n'))
            if (line.startsWith("OE_TEST_URI="))
                m_uri = QString::fromUtf8(line.mid(12)).trimmed();
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
            const QList<QByteArray> all = elements(doc, arrayField);
            if (all.size() > keep &&
                (minComments == 0 || number(doc, QStringLiteral("comment_count")) >= minComments))
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
            const QByteArray parent = field(page, QStringLiteral("parent_id"));
            const std::int64_t n = number(page, QStringLiteral("page"));
            QVERIFY2(!pages[parent].count(n), "a duplicate overflow page");
            const QList<QByteArray> items = elements(page, arrayField);
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
            QList<QByteArray> all = elements(doc, arrayField);
            QCOMPARE(all.size(), keep);
            QCOMPARE(all, split->second.mid(0, keep));
            QCOMPARE(field(doc, QStringLiteral("has_extras")), QByteArray("\x08\x01", 2));
            std::int64_t expectPage = 0;
            for (const auto &[n, items] : pages[id]) {
                QCOMPARE(n, expectPage++);
                all += items;
            }
            QCOMPARE(all, split->second); // every element, once, in order
            if (!countField.isEmpty())
                QCOMPARE(number(doc, countField), std::int64_t(split->second.size()));
            if (!pagesField.isEmpty())
                QCOMPARE(number(doc, pagesField), std::int64_t(pages[id].size()));
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
