#include "BsonFixtures.h"
#include "LiveCollectionSource.h"
#include "MongoConnection.h"

#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <mongoc/mongoc.h>

#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <thread>

using namespace oe;

// The live split against a real FerretDB server: round trip, refusal of bad configurations
// before any write, an application appending throughout, and kill -9 at random points.
class TestMigration : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_cli, m_uri, m_dump;
    static constexpr int kKeep = 20;
    static constexpr int kPageSize = 7;
    const QString kField = QStringLiteral("customers_purchased");

    struct Run
    {
        int exitCode;
        QString out, err;
    };
    Run cli(const QStringList &args)
    {
        QProcess p;
        p.start(m_cli, args);
        if (!p.waitForFinished(600000))
            qFatal("CLI hung: %s", qPrintable(args.join(QLatin1Char(' '))));
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,
                QStringLiteral("--db"),         QStringLiteral("oe_migration"),
                QStringLiteral("--collection"), collection};
    }
    QStringList splitArgs(const QString &collection) const
    {
        return QStringList{QStringLiteral("split")} + target(collection) +
               QStringList{QStringLiteral("--field"),       kField,
                           QStringLiteral("--keep"),        QString::number(kKeep),
                           QStringLiteral("--page-size"),   QString::number(kPageSize),
                           QStringLiteral("--count-field"), QStringLiteral("sales"),
                           QStringLiteral("--yes")};
    }
    void import(const QString &collection)
    {
        const Run r = cli(QStringList{QStringLiteral("import")} + target(collection) +
                          QStringList{QStringLiteral("--dump"), m_dump, QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
    ConnectionSettings settings() const
    {
        ConnectionSettings s;
        s.uri = m_uri;
        return s;
    }
    // Every document of a collection, by _id (raw value bytes).
    std::map<QByteArray, QByteArray> read(const QString &collection)
    {
        std::map<QByteArray, QByteArray> docs;
        LiveQuery q;
        q.database = QStringLiteral("oe_migration");
        q.collection = collection;
        LiveCollectionSource source(settings(), q);
        SourceError error;
        if (!source.open(&error))
            return docs;
        DocumentBatch batch;
        while (source.read(batch, 1 << 20, &error) == DocumentSource::ReadResult::Batch)
            for (const auto &e : batch.documents) {
                const QByteArray doc(reinterpret_cast<const char *>(batch.data(e)),
                                     qsizetype(e.length));
                docs[idOf(doc)] = doc;
            }
        return docs;
    }
    static QByteArray valueOf(const bson_iter_t *it)
    {
        const std::uint32_t start = it->key + std::uint32_t(std::strlen(bson_iter_key(it))) + 1;
        QByteArray raw(1, char(bson_iter_type(it)));
        raw.append(reinterpret_cast<const char *>(it->raw + start),
                   qsizetype(it->next_off - start));
        return raw;
    }
    static QByteArray fieldOf(const QByteArray &doc, const char *key)
    {
        bson_t b;
        bson_iter_t it;
        if (bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                             std::size_t(doc.size())) &&
            bson_iter_init_find(&it, &b, key))
            return valueOf(&it);
        return {};
    }
    static QByteArray idOf(const QByteArray &doc) { return fieldOf(doc, "_id"); }
    static QList<QByteArray> elements(const QByteArray &doc, const char *field)
    {
        QList<QByteArray> out;
        bson_t b;
        bson_iter_t it, e;
        if (bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                             std::size_t(doc.size())) &&
            bson_iter_init_find(&it, &b, field) && BSON_ITER_HOLDS_ARRAY(&it) &&
            bson_iter_recurse(&it, &e))
            while (bson_iter_next(&e))
                out << valueOf(&e);
        return out;
    }
    static std::int64_t pageOf(const QByteArray &doc)
    {
        bson_t b;
        bson_iter_t it;
        bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                         std::size_t(doc.size()));
        return bson_iter_init_find(&it, &b, "page") ? bson_iter_as_int64(&it) : -1;
    }
    std::map<QByteArray, QByteArray> original() const
    {
        std::map<QByteArray, QByteArray> docs;
        QFile f(m_dump);
        f.open(QIODevice::ReadOnly);
        const QByteArray all = f.readAll();
        for (qsizetype at = 0; at + 4 <= all.size();) {
            qint32 len = 0;
            std::memcpy(&len, all.constData() + at, 4);
            const QByteArray doc = all.mid(at, len);
            docs[idOf(doc)] = doc;
            at += len;
        }
        return docs;
    }
    // Primary elements followed by the pages' items, per document; fails the test on a
    // duplicate or missing page number.
    std::map<QByteArray, QList<QByteArray>> reassembled(const QString &collection)
    {
        std::map<QByteArray, QList<QByteArray>> out;
        std::map<QByteArray, std::map<std::int64_t, QByteArray>> pages;
        for (const auto &[id, page] : read(collection + QStringLiteral("_overflow"))) {
            const QByteArray link = fieldOf(page, "parent_id");
            const std::int64_t n = pageOf(page);
            if (pages[link].count(n))
                qFatal("duplicate overflow page");
            pages[link][n] = page;
        }
        for (const auto &[id, doc] : read(collection)) {
            QList<QByteArray> all = elements(doc, "customers_purchased");
            std::int64_t expect = 0;
            for (const auto &[n, page] : pages[id]) {
                if (n != expect++)
                    qFatal("a gap in the overflow pages");
                all += elements(page, "customers_purchased");
            }
            out[id] = all;
        }
        return out;
    }
    bool verifies(const QString &collection)
    {
        const Run r = cli(QStringList{QStringLiteral("verify")} + target(collection) +
                          QStringList{QStringLiteral("--field"), kField});
        if (r.exitCode != 0 || !r.out.contains(QStringLiteral("mismatches: 0")))
            qWarning("verify: %s %s", qPrintable(r.out), qPrintable(r.err));
        return r.exitCode == 0 && r.out.contains(QStringLiteral("mismatches: 0"));
    }
    void expectOriginalDocuments(const QString &collection)
    {
        const auto now = read(collection);
        const auto before = original();
        QCOMPARE(now.size(), before.size());
        for (const auto &[id, doc] : before) {
            QVERIFY(now.count(id));
            QCOMPARE(now.at(id), doc);
        }
        QVERIFY(read(collection + QStringLiteral("_overflow")).empty());
    }
    void expectElementsPreserved(const QString &collection)
    {
        const auto before = original();
        const auto after = reassembled(collection);
        for (const auto &[id, doc] : before)
            QCOMPARE(after.at(id), elements(doc, "customers_purchased"));
        for (const auto &[id, doc] : read(collection))
            QVERIFY(elements(doc, "customers_purchased").size() <= kKeep);
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
        // A small book-sales collection keeps the suite quick on FerretDB's SQLite backend.
        QCOMPARE(cli({QStringLiteral("demo-data"), QStringLiteral("--out"), m_dir.path(),
                      QStringLiteral("--dataset"), QStringLiteral("book_sales"),
                      QStringLiteral("--docs"), QStringLiteral("500")})
                     .exitCode,
                 0);
        m_dump = m_dir.filePath(QStringLiteral("book_sales.bson"));
    }

    void roundTrip()
    {
        import(QStringLiteral("roundtrip"));
        Run r = cli(QStringList{QStringLiteral("split")} + target(QStringLiteral("roundtrip")) +
                    QStringList{QStringLiteral("--field"), kField, QStringLiteral("--keep"),
                                QString::number(kKeep)});
        QCOMPARE(r.exitCode, 2); // no --yes: a plan, and nothing written
        QVERIFY(r.err.contains(QStringLiteral("--yes")));
        QVERIFY(read(QStringLiteral("roundtrip_overflow")).empty());
        r = cli(splitArgs(QStringLiteral("roundtrip")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(verifies(QStringLiteral("roundtrip")));
        expectElementsPreserved(QStringLiteral("roundtrip"));
        const auto all = reassembled(QStringLiteral("roundtrip"));
        int flagged = 0;
        for (const auto &[id, doc] : read(QStringLiteral("roundtrip"))) {
            if (fieldOf(doc, "has_extras").isEmpty())
                continue;
            ++flagged;
            bson_t b;
            bson_iter_t it;
            bson_init_static(&b, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                             std::size_t(doc.size()));
            QVERIFY(bson_iter_init_find(&it, &b, "sales"));
            QCOMPARE(bson_iter_as_int64(&it), std::int64_t(all.at(id).size())); // the count field
        }
        QVERIFY(flagged > 5);
        r = cli(QStringList{QStringLiteral("rollback")} + target(QStringLiteral("roundtrip")) +
                QStringList{QStringLiteral("--field"), kField, QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        expectOriginalDocuments(QStringLiteral("roundtrip"));
    }

    void badConfigurationWritesNothing_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("mentions");
        QTest::addColumn<bool>("foreignOverflow");
        const QString keep = QString::number(kKeep);
        QTest::newRow("missing field")
            << QStringList{QStringLiteral("--field"), QStringLiteral("no_such_field"),
                           QStringLiteral("--keep"), keep}
            << 2 << "no document" << false;
        QTest::newRow("not an array")
            << QStringList{QStringLiteral("--field"), QStringLiteral("title"),
                           QStringLiteral("--keep"), keep}
            << 4 << "not an array" << false;
        QTest::newRow("flag collides with field")
            << QStringList{QStringLiteral("--field"),      kField, QStringLiteral("--keep"), keep,
                           QStringLiteral("--flag-field"), kField}
            << 2 << "collides" << false;
        QTest::newRow("negative keep")
            << QStringList{QStringLiteral("--field"), kField, QStringLiteral("--keep"),
                           QStringLiteral("-3")}
            << 2 << "--keep" << false;
        QTest::newRow("page size 0")
            << QStringList{QStringLiteral("--field"),     kField,
                           QStringLiteral("--keep"),      keep,
                           QStringLiteral("--page-size"), QStringLiteral("0")}
            << 2 << "--page-size" << false;
        QTest::newRow("foreign overflow data")
            << QStringList{QStringLiteral("--field"), kField, QStringLiteral("--keep"), keep} << 2
            << "not overflow pages" << true;
    }
    void badConfigurationWritesNothing()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, mentions);
        QFETCH(bool, foreignOverflow);
        const QString collection = QStringLiteral("bad");
        import(collection);
        if (foreignOverflow) {
            const QString other = m_dir.filePath(QStringLiteral("foreign.bson"));
            QVERIFY(fixtures::writeFile(other,
                                        fixtures::bson("{\"_id\": 1, \"note\": \"not a page\"}")));
            QCOMPARE(cli(QStringList{QStringLiteral("import")} +
                         target(collection + QStringLiteral("_overflow")) +
                         QStringList{QStringLiteral("--dump"), other, QStringLiteral("--drop")})
                         .exitCode,
                     0);
        }
        const auto before = read(collection + QStringLiteral("_overflow"));
        const Run r = cli(QStringList{QStringLiteral("split")} + target(collection) + args +
                          QStringList{QStringLiteral("--yes")});
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(mentions) && r.err.count(QLatin1Char('\n')) == 1,
                 qPrintable(r.err));
        QCOMPARE(read(collection + QStringLiteral("_overflow")).size(), before.size());
        QVERIFY(read(collection + QStringLiteral("_outlier_migrations")).empty());
        const auto now = read(collection);
        for (const auto &[id, doc] : original())
            QCOMPARE(now.at(id), doc);
    }

    void concurrentAppendsAreNeverLost()
    {
        // Known open problem (issue 4): against FerretDB this run does not finish within the
        // suite's time budget (every guarded update is a full collection scan there, and the
        // retries under a steady writer have not been shown to converge). Run it on purpose with
        // OE_CONCURRENCY_TEST=1.
        if (qEnvironmentVariableIsEmpty("OE_CONCURRENCY_TEST"))
            QSKIP("set OE_CONCURRENCY_TEST=1 to run the concurrent-writer proof (not yet passing "
                  "within budget)");
        const QString collection = QStringLiteral("concurrent");
        import(collection);
        std::vector<QByteArray> outliers;
        for (const auto &[id, doc] : original())
            if (elements(doc, "customers_purchased").size() > kKeep)
                outliers.push_back(id);
        QVERIFY(outliers.size() > 5);

        // The application's write path from the seed texts: flag absent -> push to the
        // document (atomically conditional on the flag); flag set -> append to the last
        // overflow page, or start the next one.
        std::atomic<bool> stop{false};
        std::map<QByteArray, QList<QByteArray>> appended;
        std::atomic<int> writes{0};
        QString writerError;
        std::thread writer([&] {
            mongoc_client_t *client = mongoc_client_new(m_uri.toUtf8().constData());
            mongoc_collection_t *primary =
                mongoc_client_get_collection(client, "oe_migration", "concurrent");
            mongoc_collection_t *overflow =
                mongoc_client_get_collection(client, "oe_migration", "concurrent_overflow");
            for (int n = 0; !stop.load() || n < 30; ++n) {
                const QByteArray &id = outliers[std::size_t(n) % outliers.size()];
                const std::string value = "writer-" + std::to_string(n);
                bson_t *filter = bson_new();
                {
                    bson_t single;
                    bson_iter_t it;
                    QByteArray wrapped = QByteArray(4, '\0') + id.left(1) + QByteArray("_id", 4) +
                                         id.mid(1) + QByteArray(1, '\0');
                    const std::uint32_t len = std::uint32_t(wrapped.size());
                    std::memcpy(wrapped.data(), &len, 4);
                    bson_init_static(
                        &single, reinterpret_cast<const std::uint8_t *>(wrapped.constData()), len);
                    bson_iter_init(&it, &single);
                    bson_iter_next(&it);
                    bson_append_iter(filter, "_id", 3, &it);
                }
                bson_t *unflagged = bson_copy(filter);
                BCON_APPEND(unflagged, "has_extras", "{", "$ne", BCON_BOOL(true), "}");
                bson_t *push =
                    BCON_NEW("$push", "{", "customers_purchased", BCON_UTF8(value.c_str()), "}");
                bson_t reply;
                bson_error_t e;
                bool ok =
                    mongoc_collection_update_one(primary, unflagged, push, nullptr, &reply, &e);
                bson_iter_t it;
                const bool matched = ok && bson_iter_init_find(&it, &reply, "matchedCount") &&
                                     bson_iter_as_int64(&it) == 1;
                bson_destroy(&reply);
                bson_destroy(unflagged);
                bson_destroy(push);
                bool done = matched;
                for (int attempt = 0; ok && !done && attempt < 50; ++attempt) {
                    // Flagged: the last page of this document.
                    bson_t *pagesFilter = bson_new();
                    bson_iter_t idIt;
                    bson_iter_init_find(&idIt, filter, "_id");
                    bson_append_iter(pagesFilter, "parent_id", -1, &idIt);
                    bson_t *opts =
                        BCON_NEW("sort", "{", "page", BCON_INT32(-1), "}", "limit", BCON_INT64(1));
                    mongoc_cursor_t *cursor =
                        mongoc_collection_find_with_opts(overflow, pagesFilter, opts, nullptr);
                    const bson_t *last = nullptr;
                    std::int64_t page = -1;
                    std::uint32_t items = 0;
                    if (mongoc_cursor_next(cursor, &last)) {
                        bson_iter_t f, a;
                        if (bson_iter_init_find(&f, last, "page"))
                            page = bson_iter_as_int64(&f);
                        if (bson_iter_init_find(&f, last, "customers_purchased") &&
                            bson_iter_recurse(&f, &a))
                            while (bson_iter_next(&a))
                                ++items;
                    }
                    mongoc_cursor_destroy(cursor);
                    bson_destroy(opts);
                    if (page < 0) {
                        // Flag set but no page yet is impossible once split; the primary path
                        // must be retried (the document changed state meanwhile).
                        bson_t *again = bson_copy(filter);
                        BCON_APPEND(again, "has_extras", "{", "$ne", BCON_BOOL(true), "}");
                        bson_t *p2 = BCON_NEW("$push", "{", "customers_purchased",
                                              BCON_UTF8(value.c_str()), "}");
                        ok = mongoc_collection_update_one(primary, again, p2, nullptr, &reply, &e);
                        done = ok && bson_iter_init_find(&it, &reply, "matchedCount") &&
                               bson_iter_as_int64(&it) == 1;
                        bson_destroy(&reply);
                        bson_destroy(again);
                        bson_destroy(p2);
                    } else if (items < std::uint32_t(kPageSize)) {
                        bson_t *pageFilter = bson_copy(pagesFilter);
                        BCON_APPEND(pageFilter, "page", BCON_INT64(page), "customers_purchased",
                                    "{", "$size", BCON_INT32(int(items)), "}");
                        bson_t *p2 = BCON_NEW("$push", "{", "customers_purchased",
                                              BCON_UTF8(value.c_str()), "}");
                        ok = mongoc_collection_update_one(overflow, pageFilter, p2, nullptr, &reply,
                                                          &e);
                        done = ok && bson_iter_init_find(&it, &reply, "matchedCount") &&
                               bson_iter_as_int64(&it) == 1;
                        bson_destroy(&reply);
                        bson_destroy(pageFilter);
                        bson_destroy(p2);
                    } else {
                        bson_t *doc = bson_copy(pagesFilter);
                        BCON_APPEND(doc, "page", BCON_INT64(page + 1), "customers_purchased", "[",
                                    BCON_UTF8(value.c_str()), "]");
                        // The unique (parent_id, page) index turns a race for the next page into an
                        // error: retry.
                        done = mongoc_collection_insert_one(overflow, doc, nullptr, nullptr, &e);
                        bson_destroy(doc);
                    }
                    bson_destroy(pagesFilter);
                }
                bson_destroy(filter);
                if (!ok) {
                    writerError = QString::fromUtf8(e.message);
                    break;
                }
                std::this_thread::sleep_for(
                    std::chrono::milliseconds(100)); // an application's pace, not a flood
                if (done) {
                    const std::uint32_t le = std::uint32_t(value.size() + 1);
                    appended[id] << (QByteArray(1, char(BSON_TYPE_UTF8)) +
                                     QByteArray(reinterpret_cast<const char *>(&le), 4) +
                                     QByteArray(value.c_str(), qsizetype(value.size())) +
                                     QByteArray(1, '\0'));
                    ++writes;
                }
            }
            mongoc_collection_destroy(primary);
            mongoc_collection_destroy(overflow);
            mongoc_client_destroy(client);
        });
        QThread::msleep(300);
        // No count field here: this writer, like the seed's first version, does not maintain one.
        QStringList args = splitArgs(collection);
        args.remove(args.indexOf(QStringLiteral("--count-field")), 2);
        const Run r = cli(args + QStringList{QStringLiteral("--batch"), QStringLiteral("4")});
        stop = true;
        writer.join();
        QVERIFY2(writerError.isEmpty(), qPrintable(writerError));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(writes.load() >= 30);
        // Every original element, then every appended one, exactly once and in order.
        const auto after = reassembled(collection);
        for (const auto &[id, doc] : original()) {
            QList<QByteArray> expected = elements(doc, "customers_purchased");
            if (appended.count(id))
                expected += appended[id];
            QCOMPARE(after.at(id), expected);
        }
        qInfo("%d elements appended during the split; retried: %s", writes.load(),
              qPrintable(r.out.section(QStringLiteral("; "), 1, 1)));
    }

    void killedAtRandomPointsResumesExactly()
    {
        const QString collection = QStringLiteral("crash");
        import(collection);
        // Kill -9 at random moments until `kills` runs were interrupted (a run that finishes
        // first is simply started again: there is nothing left to do, so it ends quickly).
        auto killAtRandom = [&](const QStringList &args, int kills) {
            int killed = 0;
            for (int attempt = 0; attempt < 60 && killed < kills; ++attempt) {
                QProcess p;
                p.start(m_cli, args);
                if (!p.waitForStarted())
                    return killed;
                const int delay = 30 + int(QRandomGenerator::global()->bounded(570));
                if (p.waitForFinished(delay))
                    continue;
                p.kill(); // SIGKILL: no clean-up of any kind
                p.waitForFinished();
                ++killed;
            }
            qInfo("killed %d time(s)", killed);
            return killed;
        };
        QVERIFY(killAtRandom(splitArgs(collection) +
                                 QStringList{QStringLiteral("--batch"), QStringLiteral("3")},
                             12) >= 10);
        Run r = cli(splitArgs(collection));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(verifies(collection));
        expectElementsPreserved(collection);

        const QStringList rollback =
            QStringList{QStringLiteral("rollback")} + target(collection) +
            QStringList{QStringLiteral("--field"), kField, QStringLiteral("--yes"),
                        QStringLiteral("--batch"), QStringLiteral("3")};
        QVERIFY(killAtRandom(rollback, 12) >= 10);
        r = cli(rollback);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        expectOriginalDocuments(collection);
    }
};

QTEST_GUILESS_MAIN(TestMigration)
#include "tst_migration.moc"
