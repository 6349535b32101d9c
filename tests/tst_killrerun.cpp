// A live split killed (-9) while its writes are still on their way to the server, then run again
// at once from a faster link: the re-run must be safe against the killed run's in-flight
// operations (issue 24). The killed runs talk to the server through a real proxy (toxiproxy)
// that, once they write, delays what the client sends by 1 s, so that a trim the killed client
// sent just before it died reaches the server after the re-run, connected directly, has
// resumed; the same for a rollback run at once after a killed split. Afterwards every element is
// present once and in order. On mongod and on FerretDB.
#include "CliRunner.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "SplitDocuments.h"
#include "Toxiproxy.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <bson/bson.h>

#include <set>

using namespace Qt::StringLiterals;

class TestKillRerun : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    fixtures::LiveServer m_server;
    QString m_uri, m_dump;
    Toxiproxy m_proxy;
    QString m_slowUri;
    const QString kDb = u"oe_killrerun"_s;
    const QString kField = u"customers_purchased"_s;
    static constexpr int kKeep = 10, kPageSize = 20, kLatencyMs = 1000;

    QStringList target(const QString &uri, const QString &collection) const
    {
        return {u"--uri"_s, uri, u"--db"_s, kDb, u"--collection"_s, collection};
    }
    QStringList splitArgs(const QString &uri, const QString &collection) const
    {
        return QStringList{u"split"_s} + target(uri, collection) +
               QStringList{u"--field"_s,     kField,
                           u"--keep"_s,      QString::number(kKeep),
                           u"--page-size"_s, QString::number(kPageSize),
                           u"--yes"_s};
    }
    QStringList rollbackArgs(const QString &uri, const QString &collection) const
    {
        return QStringList{u"rollback"_s} + target(uri, collection) +
               QStringList{u"--field"_s, kField, u"--yes"_s};
    }
    // Batches of 3 at 20 documents/s: no run gets far before it is killed.
    static QStringList paced() { return {u"--batch"_s, u"3"_s, u"--max-docs-per-sec"_s, u"20"_s}; }
    void import(const QString &collection)
    {
        const CliRun r = runCli(QStringList{u"import"_s} + target(m_uri, collection) +
                                QStringList{u"--dump"_s, m_dump, u"--drop"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
    // Starts `args` and kills it (-9) after a random time in [fromMs, toMs); false if it ended
    // on its own first (`exitCode` then says how).
    static bool killAfter(const QStringList &args, int fromMs, int toMs, int *exitCode,
                          QString *err)
    {
        QProcess p;
        p.start(qEnvironmentVariable("OE_CLI"), args);
        if (!p.waitForStarted())
            return false;
        const int delay = fromMs + int(QRandomGenerator::global()->bounded(toMs - fromMs));
        if (p.waitForFinished(delay)) {
            *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
            *err = QString::fromUtf8(p.readAllStandardError()).trimmed();
            return false;
        }
        p.kill();
        p.waitForFinished();
        return true;
    }
    // Every element of every original document, once and in order, in its document or its
    // pages; the number of documents that differ (each named in a warning).
    int documentsWithLostElements(const QString &collection) const
    {
        const auto after = fixtures::reassembled(m_uri, kDb, collection, kField);
        int wrong = 0;
        for (const QByteArray &doc : fixtures::dumpDocuments(m_dump)) {
            const QByteArray id = fixtures::fieldOf(doc, u"_id"_s);
            const QList<QByteArray> expected = fixtures::elementsOf(doc, kField);
            const auto found = after.find(id);
            const QList<QByteArray> actual =
                found == after.end() ? QList<QByteArray>() : found->second;
            if (actual != expected) {
                ++wrong;
                qWarning("%s", qPrintable(fixtures::elementDifference(id, actual, expected)));
            }
        }
        return wrong;
    }
    // The _ids of the journal's pending entries (raw {run, doc} values).
    std::set<QByteArray> pendingEntries(const QString &collection) const
    {
        std::set<QByteArray> ids;
        const QByteArray pending = QByteArray(1, char(BSON_TYPE_UTF8)) +
                                   QByteArray::fromHex("08000000") + QByteArray("pending", 8);
        for (const auto &[id, entry] :
             fixtures::readCollection(m_uri, kDb, collection + u"_outlier_migrations"_s))
            if (fixtures::fieldOf(entry, u"state"_s) == pending)
                ids.insert(id);
        return ids;
    }
    // Waits until the journal holds a pending entry not in `known` (a round's entries reached
    // the server) while `p` runs; false if it ended or took over a minute.
    bool newRound(QProcess &p, const QString &collection, const std::set<QByteArray> &known)
    {
        QElapsedTimer clock;
        clock.start();
        while (p.state() == QProcess::Running && clock.elapsed() < 60000) {
            for (const QByteArray &id : pendingEntries(collection))
                if (!known.count(id))
                    return true;
            p.waitForFinished(20);
        }
        return false;
    }
    // A split through the proxy, killed just after it sent a trim: once it writes, the link
    // turns slow (what the client sends arrives kLatencyMs late); when the next round's journal
    // entries reach the server, the client sends the pages (they arrive one latency later),
    // then the trims (one more); killed in between, its trims are still in the proxy, to reach
    // the server about kLatencyMs after the kill. Returns when that may happen (ms since
    // `clock`'s start), or -1 if the run ended on its own first.
    qint64 killWithTrimInFlight(const QString &collection, const QElapsedTimer &clock)
    {
        QProcess p;
        p.start(qEnvironmentVariable("OE_CLI"), splitArgs(m_slowUri, collection) + paced());
        if (!p.waitForStarted() || !newRound(p, collection, pendingEntries(collection)))
            return -1;
        QString error;
        if (!m_proxy.addToxic(u"slow"_s, u"latency"_s, u"upstream"_s,
                              u"{\"latency\": %1}"_s.arg(kLatencyMs), &error))
            qFatal("toxiproxy: %s", qPrintable(error));
        if (!newRound(p, collection, pendingEntries(collection)))
            return -1;
        const qint64 seen = clock.elapsed();
        p.waitForFinished(kLatencyMs + 50 + int(QRandomGenerator::global()->bounded(250)));
        if (p.state() != QProcess::Running)
            return -1;
        p.kill();
        p.waitForFinished();
        return seen + 2 * kLatencyMs + 500;
    }
    // `trials` times: a split through the slow link killed with a trim in flight; at once a
    // run of `rerun` connected directly, itself killed after 100-600 ms (its resume is done by
    // then; the killed run's trim has not arrived yet). The number of slow runs killed so.
    int killedThroughSlowLink(const QString &collection, const QStringList &rerun, int trials)
    {
        int killed = 0, exitCode = 0;
        QString err;
        QElapsedTimer clock;
        clock.start();
        for (int t = 0; t < trials; ++t) {
            const qint64 landed = killWithTrimInFlight(collection, clock);
            if (landed >= 0) {
                ++killed;
                // One document a second: killed after 100-600 ms, the re-run has resumed but
                // split at most one document afresh (a run that went on would re-split the
                // killed batch before the dead run's trim lands, hiding the race).
                killAfter(rerun +
                              QStringList{u"--batch"_s, u"1"_s, u"--max-docs-per-sec"_s, u"1"_s},
                          100, 600, &exitCode, &err);
                QTest::qWait(int(std::max<qint64>(0, landed - clock.elapsed())));
            }
            m_proxy.removeToxic(u"slow"_s, &err);
        }
        return killed;
    }

private slots:
    void initTestCase()
    {
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        QString error;
        QVERIFY2(m_proxy.start(m_server.value(u"OE_TEST_HOSTPORT"_s), &error), qPrintable(error));
        m_slowUri = u"mongodb://%1/?directConnection=true"_s.arg(m_proxy.listen());
        // Enough outliers for the trials (each takes a few); fewer on FerretDB, where every
        // write scans the collection and the final run would take minutes.
        const QString docs = m_server.isFerretDb() ? u"1200"_s : u"2500"_s;
        QCOMPARE(runCli({u"demo-data"_s, u"--out"_s, m_dir.path(), u"--dataset"_s, u"book_sales"_s,
                         u"--docs"_s, docs})
                     .exitCode,
                 0);
        m_dump = m_dir.filePath(u"book_sales.bson"_s);
    }

    void splitKilledThenRerunAtOnce()
    {
        const QString collection = u"split_rerun"_s;
        import(collection);
        const int killed = killedThroughSlowLink(collection, splitArgs(m_uri, collection), 20);
        QVERIFY2(killed >= 15, qPrintable(u"only %1 of 20 slow runs were killed"_s.arg(killed)));
        const CliRun r = runCli(splitArgs(m_uri, collection));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const CliRun v = runCli(QStringList{u"verify"_s} + target(m_uri, collection) +
                                QStringList{u"--field"_s, kField});
        qInfo("%d slow runs killed; verify: %s", killed, qPrintable(v.out.trimmed()));
        QCOMPARE(documentsWithLostElements(collection), 0);
        QVERIFY2(v.exitCode == 0 && v.out.contains(u"mismatches: 0"_s), qPrintable(v.out + v.err));
    }

    void rollbackAtOnceAfterKilledSplits()
    {
        // A rollback run at once after each killed split, to its end: the killed run's trim
        // must not land on a document after it was written back (its pages deleted). Every
        // document is its original again after each rollback, and no page is left. (Fewer
        // trials on FerretDB: it lists no connections, so each rollback first waits 10 s.)
        const QString collection = u"rollback_rerun"_s;
        import(collection);
        const int trials = m_server.isFerretDb() ? 3 : 8;
        QElapsedTimer clock;
        clock.start();
        int killed = 0;
        for (int t = 0; t < trials; ++t) {
            const qint64 landed = killWithTrimInFlight(collection, clock);
            QString err;
            if (landed >= 0) {
                ++killed;
                const CliRun r = runCli(rollbackArgs(m_uri, collection));
                QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
                QTest::qWait(int(std::max<qint64>(0, landed - clock.elapsed())));
                QCOMPARE(documentsWithLostElements(collection), 0);
                const auto now = fixtures::readCollection(m_uri, kDb, collection);
                for (const QByteArray &doc : fixtures::dumpDocuments(m_dump))
                    QCOMPARE(now.at(fixtures::fieldOf(doc, u"_id"_s)), doc);
                QVERIFY(fixtures::readCollection(m_uri, kDb, collection + u"_overflow"_s).empty());
            }
            m_proxy.removeToxic(u"slow"_s, &err);
        }
        qInfo("%d of %d splits killed with a trim in flight, each rolled back at once", killed,
              trials);
        QVERIFY(killed >= trials * 2 / 3);
    }
};

QTEST_GUILESS_MAIN(TestKillRerun)
#include "tst_killrerun.moc"
