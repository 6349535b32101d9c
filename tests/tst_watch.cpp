// `outlier-explorer-cli watch` against the real servers: on mongod's replica set a writer grows a
// document past the threshold and the watch reports it within 2 s (a change stream); through a
// proxy that goes away and comes back, the watch says it lost the connection, resumes from its
// token, and reports the change made meanwhile; --once for cron (exit 1, the Prometheus file,
// hostile names escaped); a periodic check where there is no change stream (a standalone mongod,
// FerretDB); a database or collection that is not there is an error naming the names nearby, and
// the watch ends (exit 2, one line saying what happened) when its collection is dropped, renamed
// or its database dropped.
#include "CliRunner.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "Toxiproxy.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kDb = QStringLiteral("oe_watch");

// A running `watch`, its lines as they come.
class Watcher
{
public:
    void start(const QStringList &args)
    {
        m_process.start(qEnvironmentVariable("OE_CLI"),
                        QStringList{QStringLiteral("watch")} + args);
    }
    ~Watcher()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
        m_process.waitForFinished(5000);
    }
    // Waits up to `ms` for a status line (stderr) containing `text`.
    bool waitForStatus(const QString &text, int ms)
    {
        return waitFor(&m_err, QProcess::StandardError, text, ms);
    }
    // Waits up to `ms` for an event line (stdout) containing `text`; the line.
    QString waitForEvent(const QString &text, int ms)
    {
        QString line;
        waitFor(&m_out, QProcess::StandardOutput, text, ms, &line);
        return line;
    }
    // Waits up to `ms` for the process to end by itself; its exit code, -1 when it did not
    // (or crashed). What it printed is read to the end.
    int waitForExit(int ms)
    {
        const bool ended = m_process.waitForFinished(ms);
        m_err += QString::fromUtf8(m_process.readAllStandardError());
        m_out += QString::fromUtf8(m_process.readAllStandardOutput());
        return ended && m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }
    QString statuses() const { return m_err; }
    QString events() const { return m_out; }

private:
    bool waitFor(QString *buffer, QProcess::ProcessChannel channel, const QString &text, int ms,
                 QString *found = nullptr)
    {
        QElapsedTimer clock;
        clock.start();
        for (;;) {
            m_process.setReadChannel(channel);
            *buffer += QString::fromUtf8(channel == QProcess::StandardError
                                             ? m_process.readAllStandardError()
                                             : m_process.readAllStandardOutput());
            for (const QString &line : buffer->split(QLatin1Char('\n')))
                if (line.contains(text)) {
                    if (found)
                        *found = line;
                    return true;
                }
            const qint64 left = ms - clock.elapsed();
            if (left <= 0 || m_process.state() == QProcess::NotRunning)
                return false;
            m_process.waitForReadyRead(int(std::min<qint64>(left, 100)));
        }
    }

    QProcess m_process;
    QString m_out, m_err;
};

QByteArray json(const QString &text)
{
    return text.toUtf8();
}

// The database the nearby names come from: a few collections, ten more that are far from the
// typed name (the list is bounded), and on mongod one whose name holds a line feed.
const QString kNamesDb = QStringLiteral("oe_watch_names");

QStringList namesIn(bool mongod)
{
    QStringList names = {QStringLiteral("feeds"), QStringLiteral("posts")};
    for (int i = 0; i < 10; ++i)
        names << QStringLiteral("c%1").arg(i);
    if (mongod)
        names << QStringLiteral("feed\\ns"); // JSON: a line feed in the name
    return names;
}

} // namespace

class TestWatch : public QObject
{
    Q_OBJECT

    fixtures::LiveServer m_plain;
    fixtures::LiveServer m_replset;
    QTemporaryDir m_dir;

    static bool run(const QString &uri, const QString &command)
    {
        QString error;
        const bool ok = fixtures::command(uri, kDb, json(command), &error);
        if (!ok)
            qWarning("%s: %s", qPrintable(command), qPrintable(error));
        return ok;
    }
    static bool runIn(const QString &uri, const QString &database, const QString &command)
    {
        QString error;
        const bool ok = fixtures::command(uri, database, json(command), &error);
        if (!ok)
            qWarning("%s: %s", qPrintable(command), qPrintable(error));
        return ok;
    }
    static QString push(const QString &collection, const QString &id, int from, int to)
    {
        QStringList items;
        for (int i = from; i <= to; ++i)
            items << QString::number(i);
        return QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": \"%2\"}, "
                              "\"u\": {\"$push\": {\"items\": {\"$each\": [%3]}}}, "
                              "\"upsert\": true}]}")
            .arg(collection, id, items.join(QLatin1Char(',')));
    }

private slots:
    void initTestCase()
    {
        m_plain = fixtures::LiveServer::open(QStringLiteral("plain"));
        m_replset = fixtures::LiveServer::open(QStringLiteral("replset"));
        QVERIFY2(m_plain.isValid(), qPrintable(m_plain.missing()));
    }

    void reportsACrossingWithinTwoSeconds()
    {
        if (!m_replset.isMongod())
            QSKIP("change streams: mongod's replica set");
        const QString uri = m_replset.uri();
        QVERIFY(run(uri, push(QStringLiteral("feeds"), QStringLiteral("small"), 1, 3)));
        Watcher watch;
        watch.start({QStringLiteral("--uri"), uri, QStringLiteral("--db"), kDb,
                     QStringLiteral("--collection"), QStringLiteral("feeds"),
                     QStringLiteral("--field"), QStringLiteral("items"), QStringLiteral("--keep"),
                     QStringLiteral("5"), QStringLiteral("--size-threshold"),
                     QStringLiteral("1000000"), QStringLiteral("--json")});
        QVERIFY2(watch.waitForStatus(QStringLiteral("with a change stream"), 30000),
                 qPrintable(watch.statuses()));
        // Still under: nothing; then over.
        QVERIFY(run(uri, push(QStringLiteral("feeds"), QStringLiteral("small"), 4, 5)));
        QElapsedTimer clock; // from before the write: its round trip counts too
        clock.start();
        QVERIFY(run(uri, push(QStringLiteral("feeds"), QStringLiteral("small"), 6, 7)));
        const QString line = watch.waitForEvent(QStringLiteral("\"_id\":\"small\""), 2000);
        const qint64 ms = clock.elapsed();
        QVERIFY2(!line.isEmpty(), qPrintable(watch.events() + watch.statuses()));
        qInfo("reported %lld ms after the write was sent", ms);
        QVERIFY(ms <= 2000);
        const QJsonObject event = QJsonDocument::fromJson(line.toUtf8()).object();
        QCOMPARE(event.value(QStringLiteral("length")).toInt(), 7);
        QCOMPARE(event.value(QStringLiteral("op")).toString(), QStringLiteral("update"));
        QCOMPARE(event.value(QStringLiteral("over")).toArray(),
                 QJsonArray({QStringLiteral("array")}));
        QVERIFY(event.value(QStringLiteral("size")).toInt() > 0);
        QVERIFY2(!watch.events().contains(QStringLiteral("\"length\":5")),
                 qPrintable(watch.events()));
    }

    // The proxy goes away while the watch waits, a writer crosses meanwhile (straight to the
    // server), the proxy comes back: the watch says so, resumes from its token, and the change
    // is reported, not lost.
    void resumesAfterALostConnection()
    {
        if (!m_replset.isMongod())
            QSKIP("change streams: mongod's replica set");
        Toxiproxy proxy;
        QString error;
        QVERIFY2(proxy.start(m_replset.value(QStringLiteral("OE_TEST_HOSTPORT")), &error),
                 qPrintable(error));
        const QString direct = m_replset.uri();
        QVERIFY(run(direct, push(QStringLiteral("posts"), QStringLiteral("viral"), 1, 2)));
        Watcher watch;
        watch.start({QStringLiteral("--uri"),
                     QStringLiteral("mongodb://%1/?directConnection=true").arg(proxy.listen()),
                     QStringLiteral("--db"), kDb, QStringLiteral("--collection"),
                     QStringLiteral("posts"), QStringLiteral("--field"), QStringLiteral("items"),
                     QStringLiteral("--keep"), QStringLiteral("5"), QStringLiteral("--json")});
        QVERIFY2(watch.waitForStatus(QStringLiteral("with a change stream"), 30000),
                 qPrintable(watch.statuses()));
        QVERIFY(run(direct, push(QStringLiteral("posts"), QStringLiteral("first"), 1, 6)));
        QVERIFY(!watch.waitForEvent(QStringLiteral("\"first\""), 5000).isEmpty());

        QVERIFY2(proxy.setEnabled(false, &error), qPrintable(error));
        QVERIFY2(watch.waitForStatus(QStringLiteral("connection lost"), 30000),
                 qPrintable(watch.statuses()));
        QVERIFY(run(direct, push(QStringLiteral("posts"), QStringLiteral("viral"), 3, 9)));
        QVERIFY2(proxy.setEnabled(true, &error), qPrintable(error));
        QVERIFY2(watch.waitForStatus(QStringLiteral("resumed after"), 30000),
                 qPrintable(watch.statuses()));
        const QString line = watch.waitForEvent(QStringLiteral("\"_id\":\"viral\""), 10000);
        QVERIFY2(!line.isEmpty(), qPrintable(watch.events() + watch.statuses()));
        QCOMPARE(
            QJsonDocument::fromJson(line.toUtf8()).object().value(QStringLiteral("length")).toInt(),
            9);
    }

    // For cron: exit 1 and the document when one is over, 0 when none is; the Prometheus file
    // with the collection's hostile name escaped.
    void onceForCron()
    {
        const QString uri = m_plain.uri();
        // A double quote in the name (mongod takes it; FerretDB 1.x names are plainer).
        const bool mongod = m_plain.isMongod();
        const QString name = mongod ? QStringLiteral("we\"ird feed") : QStringLiteral("cron");
        const QString inJson = mongod ? QStringLiteral("we\\\"ird feed") : name;
        QString ignored; // a first run has nothing to drop
        fixtures::command(uri, kDb, json(QStringLiteral("{\"drop\": \"%1\"}").arg(inJson)),
                          &ignored);
        QVERIFY(run(uri, push(inJson, QStringLiteral("big"), 1, 8)));
        QVERIFY(run(uri, push(inJson, QStringLiteral("ok"), 1, 2)));
        const QString prom = m_dir.filePath(QStringLiteral("watch.prom"));
        const QStringList base = {QStringLiteral("--uri"),        uri,
                                  QStringLiteral("--db"),         kDb,
                                  QStringLiteral("--collection"), name,
                                  QStringLiteral("--field"),      QStringLiteral("items")};
        CliRun r =
            runCli(QStringList{QStringLiteral("watch")} + base +
                   QStringList{QStringLiteral("--keep"), QStringLiteral("5"),
                               QStringLiteral("--once"), QStringLiteral("--prometheus"), prom});
        QVERIFY2(r.exitCode == 1, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("_id \"big\"")) &&
                     !r.out.contains(QStringLiteral("\"ok\"")),
                 qPrintable(r.out));
        QFile f(prom);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        const QString label = mongod ? QStringLiteral("we\\\"ird feed") : name;
        QVERIFY2(text.contains(QStringLiteral("outlier_explorer_watch_documents_over_array{"
                                              "database=\"oe_watch\",collection=\"%1\","
                                              "field=\"items\",keep=\"5\"} 1")
                                   .arg(label)),
                 qPrintable(text));
        r = runCli(
            QStringList{QStringLiteral("watch")} + base +
            QStringList{QStringLiteral("--keep"), QStringLiteral("8"), QStringLiteral("--once")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    // Without a change stream (a standalone mongod, FerretDB): it says so, and a periodic check
    // reports the document that crossed.
    void periodicCheckWithoutAChangeStream()
    {
        const QString uri = m_plain.uri();
        QVERIFY(run(uri, push(QStringLiteral("polled"), QStringLiteral("p"), 1, 2)));
        Watcher watch;
        watch.start({QStringLiteral("--uri"), uri, QStringLiteral("--db"), kDb,
                     QStringLiteral("--collection"), QStringLiteral("polled"),
                     QStringLiteral("--field"), QStringLiteral("items"), QStringLiteral("--keep"),
                     QStringLiteral("5"), QStringLiteral("--interval-ms"), QStringLiteral("300"),
                     QStringLiteral("--json")});
        QVERIFY2(watch.waitForStatus(QStringLiteral("no change stream on this server"), 30000),
                 qPrintable(watch.statuses()));
        QCOMPARE(watch.statuses().contains(QStringLiteral("no $bsonSize")), m_plain.isFerretDb());
        QVERIFY(run(uri, push(QStringLiteral("polled"), QStringLiteral("p"), 3, 6)));
        const QString line = watch.waitForEvent(QStringLiteral("\"_id\":\"p\""), 10000);
        QVERIFY2(!line.isEmpty(), qPrintable(watch.events() + watch.statuses()));
        QCOMPARE(
            QJsonDocument::fromJson(line.toUtf8()).object().value(QStringLiteral("op")).toString(),
            QStringLiteral("check"));
    }

    // A typo must not pass for an empty collection: --once and the watch itself, on a standalone
    // (or FerretDB) and on a replica set, exit 2 with one line naming the nearest names, quoted
    // (a line feed in one stays on the line), at most five.
    void missingNamespaceIsAnError_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<bool>("once");
        QTest::addColumn<QString>("database");
        QTest::addColumn<QString>("collection");
        QTest::addColumn<QString>("nearby");
        const QString names = kNamesDb, typo = QStringLiteral("oe_watch_namez");
        const QString feeds = QStringLiteral("\"feeds\""),
                      db = QStringLiteral("\"oe_watch_names\"");
        for (const QString &variant : {QStringLiteral("plain"), QStringLiteral("replset")}) {
            for (const bool once : {true, false}) {
                const QString mode = once ? QStringLiteral("--once") : QStringLiteral("watch");
                QTest::addRow("%s, %s: no collection", qPrintable(variant), qPrintable(mode))
                    << variant << once << names << QStringLiteral("feedz") << feeds;
                QTest::addRow("%s, %s: no database", qPrintable(variant), qPrintable(mode))
                    << variant << once << typo << QStringLiteral("feeds") << db;
            }
        }
    }
    void missingNamespaceIsAnError()
    {
        QFETCH(QString, variant);
        QFETCH(bool, once);
        QFETCH(QString, database);
        QFETCH(QString, collection);
        QFETCH(QString, nearby);
        const fixtures::LiveServer &server =
            variant == QLatin1String("plain") ? m_plain : m_replset;
        if (!server.isValid())
            QSKIP("no such fixture");
        for (const QString &name : namesIn(server.isMongod())) {
            QString error;
            QVERIFY2(
                fixtures::command(server.uri(), kNamesDb,
                                  json(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": "
                                                      "{\"_id\": 1}, \"u\": {\"_id\": 1}, "
                                                      "\"upsert\": true}]}")
                                           .arg(name)),
                                  &error),
                qPrintable(error));
        }
        QStringList args = {QStringLiteral("--uri"),         server.uri(),
                            QStringLiteral("--db"),          database,
                            QStringLiteral("--collection"),  collection,
                            QStringLiteral("--field"),       QStringLiteral("items"),
                            QStringLiteral("--keep"),        QStringLiteral("5"),
                            QStringLiteral("--interval-ms"), QStringLiteral("300")};
        if (once)
            args << QStringLiteral("--once");
        Watcher watch;
        watch.start(args);
        const int exitCode = watch.waitForExit(60000);
        const QString err = watch.statuses();
        QVERIFY2(exitCode == 2, qPrintable(QStringLiteral("exit %1, stderr: %2, stdout: %3")
                                               .arg(exitCode)
                                               .arg(err, watch.events())));
        QVERIFY2(watch.events().isEmpty(), qPrintable(watch.events()));
        QVERIFY2(err.endsWith(QLatin1Char('\n')) && err.count(QLatin1Char('\n')) == 1,
                 qPrintable(err));
        QVERIFY2(err.contains(nearby), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("\"c9\"")), qPrintable(err)); // at most five
        if (server.isMongod() && database == kNamesDb)
            QVERIFY2(err.contains(QStringLiteral("\"feed\\ns\"")), qPrintable(err));
    }

    // On a replica set the watch ends by itself when its collection goes (a change stream's
    // invalidate: resuming it is refused), with one line saying what happened, and exit 2.
    void streamEndsWhenTheCollectionGoes_data()
    {
        QTest::addColumn<QString>("database");
        QTest::addColumn<QString>("commandDb");
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("said");
        QTest::newRow("drop") << QStringLiteral("oe_watch_drop") << QStringLiteral("oe_watch_drop")
                              << QStringLiteral("{\"drop\": \"feeds\"}")
                              << QStringLiteral(
                                     "watch ended: \"oe_watch_drop.feeds\" was dropped\n");
        QTest::newRow("rename") << QStringLiteral("oe_watch_rename") << QStringLiteral("admin")
                                << QStringLiteral(
                                       "{\"renameCollection\": \"oe_watch_rename.feeds\", \"to\": "
                                       "\"oe_watch_rename.feeds_renamed\", \"dropTarget\": true}")
                                << QStringLiteral(
                                       "watch ended: \"oe_watch_rename.feeds\" was renamed to "
                                       "\"oe_watch_rename.feeds_renamed\"\n");
        QTest::newRow("dropDatabase")
            << QStringLiteral("oe_watch_dropdb") << QStringLiteral("oe_watch_dropdb")
            << QStringLiteral("{\"dropDatabase\": 1}")
            << QStringLiteral(
                   "watch ended: \"oe_watch_dropdb.feeds\" was dropped, and its database "
                   "\"oe_watch_dropdb\" with it");
    }
    void streamEndsWhenTheCollectionGoes()
    {
        QFETCH(QString, database);
        QFETCH(QString, commandDb);
        QFETCH(QString, command);
        QFETCH(QString, said);
        if (!m_replset.isMongod())
            QSKIP("change streams: mongod's replica set");
        const QString uri = m_replset.uri();
        QString error;
        QVERIFY2(
            fixtures::command(uri, database, json(QStringLiteral("{\"dropDatabase\": 1}")), &error),
            qPrintable(error)); // a fresh start
        QVERIFY(runIn(uri, database, push(QStringLiteral("feeds"), QStringLiteral("a"), 1, 2)));
        if (qstrcmp(QTest::currentDataTag(), "drop") == 0) // the database stays: one more
            QVERIFY(runIn(uri, database, push(QStringLiteral("other"), QStringLiteral("b"), 1, 2)));
        Watcher watch;
        watch.start({QStringLiteral("--uri"), uri, QStringLiteral("--db"), database,
                     QStringLiteral("--collection"), QStringLiteral("feeds"),
                     QStringLiteral("--field"), QStringLiteral("items"), QStringLiteral("--keep"),
                     QStringLiteral("5")});
        QVERIFY2(watch.waitForStatus(QStringLiteral("with a change stream"), 60000),
                 qPrintable(watch.statuses()));
        QVERIFY2(fixtures::command(uri, commandDb, json(command), &error), qPrintable(error));
        const int exitCode = watch.waitForExit(60000);
        QVERIFY2(
            exitCode == 2,
            qPrintable(QStringLiteral("exit %1, stderr: %2").arg(exitCode).arg(watch.statuses())));
        QVERIFY2(watch.statuses().contains(said), qPrintable(watch.statuses()));
        QVERIFY2(!watch.statuses().contains(QStringLiteral("connection lost")),
                 qPrintable(watch.statuses()));
    }

    // Without a change stream the check finds the collection gone, and the watch ends the same.
    void periodicCheckEndsWhenTheCollectionGoes()
    {
        const QString uri = m_plain.uri();
        QVERIFY(run(uri, push(QStringLiteral("polled_gone"), QStringLiteral("p"), 1, 2)));
        Watcher watch;
        watch.start({QStringLiteral("--uri"), uri, QStringLiteral("--db"), kDb,
                     QStringLiteral("--collection"), QStringLiteral("polled_gone"),
                     QStringLiteral("--field"), QStringLiteral("items"), QStringLiteral("--keep"),
                     QStringLiteral("5"), QStringLiteral("--interval-ms"), QStringLiteral("300")});
        QVERIFY2(watch.waitForStatus(QStringLiteral("no change stream on this server"), 60000),
                 qPrintable(watch.statuses()));
        QVERIFY(run(uri, QStringLiteral("{\"drop\": \"polled_gone\"}")));
        const int exitCode = watch.waitForExit(60000);
        QVERIFY2(
            exitCode == 2,
            qPrintable(QStringLiteral("exit %1, stderr: %2").arg(exitCode).arg(watch.statuses())));
        QVERIFY2(
            watch.statuses().contains(QStringLiteral(
                "watch ended: \"oe_watch.polled_gone\" is gone: no collection \"polled_gone\"")),
            qPrintable(watch.statuses()));
    }
};

QTEST_GUILESS_MAIN(TestWatch)
#include "tst_watch.moc"
