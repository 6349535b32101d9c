// `outlier-explorer-cli watch` against the real servers: on mongod's replica set a writer grows a
// document past the threshold and the watch reports it within 2 s (a change stream); through a
// proxy that goes away and comes back, the watch says it lost the connection, resumes from its
// token, and reports the change made meanwhile; --once for cron (exit 1, the Prometheus file,
// hostile names escaped); a periodic check where there is no change stream (a standalone mongod,
// FerretDB).
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
};

QTEST_GUILESS_MAIN(TestWatch)
#include "tst_watch.moc"
