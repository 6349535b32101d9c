// Applications appending through the product's write path while a live split and then its
// rollback are killed at random points and resumed, on mongod; and an append caught between
// its two round trips by a rollback's write-backs. (FerretDB 1.x loses concurrent updates to
// one document by itself and has no update pipelines: these run on mongod only.)
#include "MigrationTestBed.h"
#include "migration/MigrationRollback.h"
#include "whatif/OverflowAppender.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace oe;

class TestMigrationWriters : public QObject, protected MigrationTestBed
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        setUpBed();
        QVERIFY2(m_server.isMongod(), "mongod only (see the file's comment)");
    }

    void appendsBetweenTheirRoundTripsSurviveTheRollback()
    {
        // An application's append that took its slot just before documents are written back
        // (its first round trip) and puts its element on the page 300 ms later (its second),
        // deterministically: the rollback runs here with a hook in exactly that window. The
        // write-back's guard holds the count it read, so it fails; the count then stands ahead
        // of the elements stored until the element lands, and the rollback waits for it: every
        // element ends in its document, in order, and no page is left.
        if (m_server.isFerretDb())
            QSKIP("FerretDB has no update pipelines: its write path is the legacy one, which "
                  "takes no slot");
        const QString collection = QStringLiteral("half_appended");
        import(collection);
        Run r = cli(splitArgs(collection));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        SplitConfig config;
        config.collection = collection;
        config.field = kField;
        config.keep = kKeep;
        config.pageSize = kPageSize;
        config.countField = QStringLiteral("sales");
        config = config.withDefaults();
        SourceError error;
        const auto connection = MongoConnection::open(settings(), &error);
        QVERIFY2(connection, qPrintable(error.toString()));
        OverflowAppender application(*connection, QStringLiteral("oe_migration"), config);
        std::map<QByteArray, QList<QByteArray>> appended;
        std::vector<std::thread> secondTrips;
        std::atomic<int> failures{0};
        MigrationOptions options;
        options.batch = 6;
        options.beforeRestore = [&](const std::vector<QByteArray> &ids) {
            if (secondTrips.size() >= 5)
                return;
            const QByteArray element = fixtures::fieldOf(
                fixtures::bson(
                    qPrintable(QStringLiteral("{\"v\": \"late-%1\"}").arg(secondTrips.size()))),
                QStringLiteral("v"));
            OverflowAppender::Reservation slot;
            SourceError e;
            if (!application.reserve(ids.front(), element, &slot, &e) || !slot.overflowed) {
                ++failures;
                return;
            }
            appended[ids.front()] << element;
            secondTrips.emplace_back([this, slot, config, &failures] {
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
                SourceError e;
                const auto own = MongoConnection::open(settings(), &e);
                OverflowAppender::Path path;
                if (!own || !OverflowAppender(*own, QStringLiteral("oe_migration"), config)
                                 .complete(slot, &path, &e))
                    ++failures;
            });
        };
        VerifyReport report;
        MigrationProgress progress;
        const bool ok = MigrationRollback::rollback(*connection, QStringLiteral("oe_migration"),
                                                    config, options, &report, &progress, &error);
        for (auto &t : secondTrips)
            t.join();
        QVERIFY2(ok, qPrintable(error.toString()));
        QCOMPARE(failures.load(), 0);
        QCOMPARE(secondTrips.size(), std::size_t(5));
        QVERIFY2(report.ok(), qPrintable(report.details.join(u'\n')));
        QCOMPARE(progress.skipped, std::uint64_t(0));
        const auto now = read(collection);
        for (const auto &[id, doc] : original()) {
            QList<QByteArray> expected = items(doc);
            if (appended.count(id))
                expected += appended.at(id);
            const QList<QByteArray> actual = items(now.at(id));
            if (actual != expected)
                QFAIL(qPrintable(difference(id, actual, expected)));
            QVERIFY(fixtures::fieldOf(now.at(id), QStringLiteral("has_extras")).isEmpty());
        }
        QVERIFY(read(collection + QStringLiteral("_overflow")).empty());
    }

    void concurrentWritersThroughKilledSplitThenKilledRollback()
    {
        // Applications append throughout while the split is killed (-9) at random points and
        // resumed: afterwards every acknowledged element is in its document or its pages, once
        // and in order. Then the rollback is killed and resumed while they go on appending:
        // every element is back in its document, once and in order, and no page is left. (The
        // write path's slot counter fences the rollback: a restore is guarded by the count it
        // read, and a count ahead of the elements stored, an append between its two round
        // trips, is waited for.)
        if (!updatesAreAtomic())
            QSKIP(kNotAtomic);
        const QString collection = QStringLiteral("writers_and_kills");
        import(collection);
        const std::vector<QByteArray> outliers = outlierIds();
        QVERIFY(outliers.size() > 40);
        QStringList split = splitArgs(collection);
        split.remove(split.indexOf(QStringLiteral("--count-field")), 2);
        const QStringList rollback =
            QStringList{QStringLiteral("rollback")} + target(collection) +
            QStringList{QStringLiteral("--field"), kField, QStringLiteral("--yes")};
        // Paced at 20 documents/s, a run killed within 600 ms has done at most 12 of the
        // outliers, so at least 3 kills land before any run can finish, on any server.
        const QStringList paced{QStringLiteral("--batch"), QStringLiteral("3"),
                                QStringLiteral("--max-docs-per-sec"), QStringLiteral("20")};
        std::map<QByteArray, QList<QByteArray>> appended;
        QString error;

        auto writers = startWriters(collection, outliers, "split-w");
        const KillTrials splitKills = killAtRandom(split + paced, 10);
        Run r = cli(split);
        const int total = stopWriters(writers, &appended, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(splitKills.killed >= 3, qPrintable(splitKills.summary()));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("left unsplit")), qPrintable(r.out));
        qInfo("split: %d element(s) appended meanwhile; %s", total,
              qPrintable(splitKills.summary()));
        expectSplitWithAppends(collection, appended);
        if (QTest::currentTestFailed())
            return;

        writers = startWriters(collection, outliers, "rollback-w");
        const KillTrials rollbackKills = killAtRandom(rollback + paced, 10);
        r = cli(rollback);
        const int during = stopWriters(writers, &appended, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(rollbackKills.killed >= 3, qPrintable(rollbackKills.summary()));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        qInfo("rollback: %d element(s) appended meanwhile; %s", during,
              qPrintable(rollbackKills.summary()));
        const auto now = read(collection);
        for (const auto &[id, doc] : original()) {
            QList<QByteArray> expected = items(doc);
            if (appended.count(id))
                expected += appended.at(id);
            QVERIFY(now.count(id));
            const QList<QByteArray> actual = items(now.at(id));
            if (actual != expected)
                QFAIL(qPrintable(difference(id, actual, expected)));
            QVERIFY(fixtures::fieldOf(now.at(id), QStringLiteral("has_extras")).isEmpty());
        }
        QVERIFY(read(collection + QStringLiteral("_overflow")).empty());
    }
};

QTEST_GUILESS_MAIN(TestMigrationWriters)
#include "tst_migrationwriters.moc"
