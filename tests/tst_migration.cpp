#include "MigrationTestBed.h"
#include "migration/OverflowMigrator.h"
#include "mongo/LiveCollectionSource.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <bson/bson.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <set>
#include <thread>

using namespace oe;

// The live split against a real server (mongod; FerretDB 1.x as the compatibility server): round
// trip, refusal of bad configurations before any write, applications appending throughout, and
// kill -9 at random points of the split, its resumption and its rollback. (Applications writing
// through a killed split and its rollback: tst_migrationwriters.)
class TestMigration : public QObject, protected MigrationTestBed
{
    Q_OBJECT

private slots:
    void initTestCase() { setUpBed(); }

    void roundTrip()
    {
        import(QStringLiteral("roundtrip"));
        Run r = cli(QStringList{QStringLiteral("split")} + target(QStringLiteral("roundtrip")) +
                    QStringList{QStringLiteral("--field"), kField, QStringLiteral("--keep"),
                                QString::number(kKeep)});
        QCOMPARE(r.exitCode, 2); // no --yes: a plan, and nothing written
        QVERIFY(r.err.contains(QStringLiteral("--yes")));
        // On FerretDB 1.x the user is told its updates are not atomic; on MongoDB nothing is said.
        QCOMPARE(r.out.contains(QStringLiteral("FerretDB v1.24.2, whose updates are not atomic")),
                 m_server.isFerretDb());
        QVERIFY2(!r.out.contains(QStringLiteral("not atomic")) || m_server.isFerretDb(),
                 qPrintable(r.out));
        QVERIFY(read(QStringLiteral("roundtrip_overflow")).empty());
        r = cli(splitArgs(QStringLiteral("roundtrip")));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(verifies(QStringLiteral("roundtrip")));
        expectElementsPreserved(QStringLiteral("roundtrip"));
        const auto all = reassembled(QStringLiteral("roundtrip"));
        int flagged = 0;
        for (const auto &[id, doc] : read(QStringLiteral("roundtrip"))) {
            if (fixtures::fieldOf(doc, QStringLiteral("has_extras")).isEmpty())
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

    void appendsBetweenReadAndTrimAreRedone()
    {
        // The application's writes landing between the split's read of a document and its trim,
        // deterministically: the migrator runs here with a hook in exactly that window, where
        // the application appends by the pattern's write path. No two writes to one document
        // overlap, so this holds on FerretDB too (see concurrentAppendsAreNeverLost).
        const QString collection = QStringLiteral("interleaved");
        import(collection);
        ConcurrentAppender app({m_uri, QStringLiteral("oe_migration"), collection,
                                collection + QStringLiteral("_overflow"), kField,
                                QStringLiteral("has_extras"), kPageSize, QString(), kKeep},
                               {}, std::chrono::milliseconds(0));
        SplitConfig config;
        config.collection = collection;
        config.field = kField;
        config.keep = kKeep;
        config.pageSize = kPageSize;
        OverflowMigrator migrator(settings(), QStringLiteral("oe_migration"), config);
        MigrationOptions options;
        options.batch = 6;
        int rounds = 0, toUnflagged = 0, toFlagged = 0;
        std::set<QByteArray> seen;       // documents the hook has met
        std::vector<QByteArray> earlier; // in the order met
        bool failed = false;
        options.beforeTrim = [&](const std::vector<QByteArray> &ids) {
            ++rounds;
            // One element to every other document met for the first time (its guard must fail,
            // once), and one through the flag to the latest document of an earlier round that
            // is not being redone (it is split by now).
            const std::set<QByteArray> now(ids.begin(), ids.end());
            for (auto it = earlier.rbegin(); it != earlier.rend(); ++it)
                if (!now.count(*it)) {
                    ConcurrentAppender::Path path;
                    failed |= !app.appendNow(*it, &path);
                    toFlagged += path != ConcurrentAppender::Path::Primary;
                    break;
                }
            bool every = true;
            for (const QByteArray &id : ids) {
                if (!seen.insert(id).second)
                    continue;
                earlier.push_back(id);
                if ((every = !every))
                    continue;
                ConcurrentAppender::Path path;
                failed |= !app.appendNow(id, &path);
                toUnflagged += path == ConcurrentAppender::Path::Primary;
            }
        };
        MigrationProgress progress;
        SourceError error;
        QVERIFY2(migrator.apply(options, &progress, &error), qPrintable(error.toString()));
        QVERIFY2(!failed, qPrintable(app.error()));
        qInfo("%d round(s); %d element(s) appended to documents about to be trimmed, %d through "
              "the flag; %llu redo(s)",
              rounds, toUnflagged, toFlagged, static_cast<unsigned long long>(progress.retried));
        QVERIFY(toUnflagged >= 20);
        QVERIFY(toFlagged >= 10);
        // Every guard that met an append failed and its document was redone; none was given up.
        QVERIFY(progress.retried >= std::uint64_t(toUnflagged));
        QCOMPARE(progress.skipped, std::uint64_t(0));

        expectSplitWithAppends(collection, app.elements());
    }

    void concurrentAppendsAreNeverLost()
    {
        if (!updatesAreAtomic())
            QSKIP(kNotAtomic);
        const QString collection = QStringLiteral("concurrent");
        import(collection);
        const std::vector<QByteArray> outliers = outlierIds();
        QVERIFY(outliers.size() > 40);

        // The application appends throughout, by the pattern's write path, to hot outliers
        // spread over the order the split reaches them, each often enough to be written both
        // before and after its trim. The split is throttled (about 7 s for the ~58 outliers
        // however fast the server is) so the writer gets there several times.
        constexpr std::size_t kHot = 8;
        std::vector<QByteArray> hot;
        for (std::size_t k = 0; k < kHot; ++k)
            hot.push_back(outliers[(2 * k + 1) * outliers.size() / (2 * kHot)]);
        ConcurrentAppender writer({m_uri, QStringLiteral("oe_migration"), collection,
                                   collection + QStringLiteral("_overflow"), kField,
                                   QStringLiteral("has_extras"), kPageSize, QString(), kKeep},
                                  hot, std::chrono::milliseconds(100));
        writer.start();
        QThread::msleep(300);
        // No --count-field: the split and the writer agree on the default one.
        QStringList args = splitArgs(collection);
        args.remove(args.indexOf(QStringLiteral("--count-field")), 2);
        writer.migrationStarted();
        const Run r =
            cli(args + QStringList{QStringLiteral("--batch"), QStringLiteral("4"),
                                   QStringLiteral("--max-docs-per-sec"), QStringLiteral("8")});
        writer.migrationEnded();
        QVERIFY2(writer.stop(30), qPrintable(writer.error()));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("left unsplit")), qPrintable(r.out));

        // The writer truly overlapped the split: it appended to documents without the flag and
        // with it while the split ran, to some documents both before and after their trim, and
        // the split met its writes (guards failed and documents were redone).
        using Path = ConcurrentAppender::Path;
        const int beforeTrim = writer.duringMigration(Path::Primary);
        const int afterTrim =
            writer.duringMigration(Path::Page) + writer.duringMigration(Path::NewPage);
        const QRegularExpressionMatch retried =
            QRegularExpression(QStringLiteral("(\\d+) retried")).match(r.out);
        QVERIFY2(retried.hasMatch(), qPrintable(r.out));
        qInfo("%d element(s) appended: %d during the split to documents without the flag, %d to "
              "flagged ones (%d new page(s)); %d document(s) written before and after their "
              "trim; %s redo(s)",
              writer.appended(), beforeTrim, afterTrim, writer.duringMigration(Path::NewPage),
              writer.documentsWrittenAcrossTheirTrim(), qPrintable(retried.captured(1)));
        QVERIFY(beforeTrim > 0);
        QVERIFY(afterTrim > 0);
        QVERIFY(writer.documentsWrittenAcrossTheirTrim() > 0);
        // Whether an append lands between the split's read of a document and its trim is up to
        // timing (rare on a fast server); appendsBetweenReadAndTrimAreRedone makes it happen.

        expectSplitWithAppends(collection, writer.elements());
    }

    void interruptStopsAfterTheBatchAndResumes()
    {
        // Ctrl-C (SIGINT) during a split: the CLI finishes the batch it is in, records it, says
        // how to resume and exits 130, leaving nothing half done; split again completes it.
        const QString collection = QStringLiteral("interrupted");
        import(collection);
        QProcess p;
        p.start(m_cli, splitArgs(collection) +
                           QStringList{QStringLiteral("--batch"), QStringLiteral("3"),
                                       QStringLiteral("--max-docs-per-sec"), QStringLiteral("10")});
        QVERIFY(p.waitForStarted());
        // Interrupted once its first batch is recorded: then it has done some but, paced at 10
        // documents/s, not all of the outliers, however fast the server is.
        QTRY_VERIFY_WITH_TIMEOUT(
            journaledAsSplit(collection) >= 3 || p.state() == QProcess::NotRunning, 60000);
        QCOMPARE(::kill(pid_t(p.processId()), SIGINT), 0);
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput()),
                      err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(err.contains(QStringLiteral("run split again to resume")), qPrintable(err));
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("^split (\\d+) document"),
                               QRegularExpression::MultilineOption)
                .match(out);
        QVERIFY2(m.hasMatch(), qPrintable(out));
        const int before = m.captured(1).toInt();
        QVERIFY2(before >= 3 && before < outlierCount(), qPrintable(out));
        // What it did is complete and verifiable: no pending entries, no mismatch.
        Run r = cli(QStringList{QStringLiteral("verify")} + target(collection) +
                    QStringList{QStringLiteral("--field"), kField});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("checked: %1,").arg(before)),
                 qPrintable(r.out + r.err));
        r = cli(splitArgs(collection));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(verifies(collection));
        expectElementsPreserved(collection);
    }

    void killedAtRandomPointsResumesExactly()
    {
        const QString collection = QStringLiteral("crash");
        import(collection);
        const QStringList paced{QStringLiteral("--batch"), QStringLiteral("3"),
                                QStringLiteral("--max-docs-per-sec"), QStringLiteral("20")};
        const KillTrials splitKills = killAtRandom(splitArgs(collection) + paced, 12);
        QVERIFY2(splitKills.killed >= 3, qPrintable(splitKills.summary()));
        Run r = cli(splitArgs(collection));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(verifies(collection));
        expectElementsPreserved(collection);

        const QStringList rollback =
            QStringList{QStringLiteral("rollback")} + target(collection) +
            QStringList{QStringLiteral("--field"), kField, QStringLiteral("--yes")};
        // Three kills within 600 ms each at 20 documents/s restore at most 36 of the outliers:
        // the rollback is interrupted part-way, whatever the server's speed.
        const KillTrials rollbackKills = killAtRandom(rollback + paced, 3);
        QCOMPARE(rollbackKills.killed, 3);
        QVERIFY(outlierCount() > 36);
        // Interrupted with documents restored and their pages still there: verify says what
        // happened and what to do.
        r = cli(QStringList{QStringLiteral("verify")} + target(collection) +
                QStringList{QStringLiteral("--field"), kField});
        QVERIFY2(r.out.contains(QStringLiteral("(state rolling_back)")), qPrintable(r.out));
        qInfo("verify after the interrupted rollback: exit %d", r.exitCode);
        if (r.exitCode != 0)
            QVERIFY2(r.out.contains(QStringLiteral("run rollback again to finish it")),
                     qPrintable(r.out));
        r = cli(rollback);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        expectOriginalDocuments(collection);
    }
};

QTEST_GUILESS_MAIN(TestMigration)
#include "tst_migration.moc"
