// A split interrupted (the CLI killed with -9) after an earlier run of the same field was rolled
// back (issue 53, defect 9): the window offers it once per server, whatever number of saved
// connections reach that server (the second offer covered Migrations and swallowed its
// Resume), and its figures are its own (no "restored" count from the earlier run).
#include "CliRunner.h"
#include "KillTrials.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "migration/MigrationHistory.h"
#include "session/InterruptedRunWatcher.h"

#include <QMessageBox>
#include <QSignalSpy>
#include <QWidget>
#include <QtTest>

using namespace oe;

namespace {

const QString kDb = QStringLiteral("oe_interruptedruns");
const QString kCollection = QStringLiteral("feeds");

int visibleOffers(const QWidget &parent)
{
    int n = 0;
    for (const QMessageBox *box : parent.findChildren<QMessageBox *>())
        n += box->isVisible() && box->windowTitle() == QStringLiteral("Interrupted migration");
    return n;
}

} // namespace

class TestInterruptedRuns : public QObject
{
    Q_OBJECT

    fixtures::LiveServer m_server;
    QString m_uri;

    QStringList target() const
    {
        return {QStringLiteral("--uri"),        m_uri,
                QStringLiteral("--db"),         kDb,
                QStringLiteral("--collection"), kCollection,
                QStringLiteral("--field"),      QStringLiteral("items")};
    }
    ConnectionSettings settingsOf(const QString &uri) const
    {
        ConnectionSettings settings;
        settings.uri = uri;
        return settings;
    }

private slots:
    void initTestCase()
    {
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        QString error;
        QVERIFY2(fixtures::command(m_uri, kDb, QByteArray("{\"dropDatabase\": 1}"), &error),
                 qPrintable(error));
        QStringList docs;
        for (int i = 0; i < 60; ++i) {
            QStringList items;
            for (int k = 0; k < 30; ++k)
                items << QString::number(k);
            docs << QStringLiteral("{\"_id\": %1, \"items\": [%2]}")
                        .arg(i)
                        .arg(items.join(QLatin1Char(',')));
        }
        QVERIFY2(fixtures::command(m_uri, kDb,
                                   QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                                       .arg(kCollection, docs.join(QLatin1Char(',')))
                                       .toUtf8(),
                                   &error),
                 qPrintable(error));
    }

    void offeredOncePerServerWithItsOwnFigures()
    {
        const QStringList keep{QStringLiteral("--keep"), QStringLiteral("5"),
                               QStringLiteral("--yes")};
        CliRun r = runCli(QStringList{QStringLiteral("split")} + target() + keep);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli(QStringList{QStringLiteral("rollback")} + target() +
                   QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Paced (20 documents a second: three seconds in all), so that the kill within 0.6 s
        // lands mid-run on any server.
        const KillTrials trials = KillTrials::run(
            qEnvironmentVariable("OE_CLI"),
            QStringList{QStringLiteral("split")} + target() + keep +
                QStringList{QStringLiteral("--batch"), QStringLiteral("2"),
                            QStringLiteral("--max-docs-per-sec"), QStringLiteral("20")},
            1);
        QCOMPARE(trials.killed, 1);

        MigrationRuns runs;
        SourceError error;
        QVERIFY2(MigrationHistory::runs(settingsOf(m_uri), {kDb}, &runs, &error),
                 qPrintable(error.message));
        QCOMPARE(runs.size(), std::size_t(1));
        QVERIFY(runs.front().interrupted());
        QCOMPARE(runs.front().restored, std::uint64_t(0)); // the earlier run's are not its own

        // Two saved connections to the one server (another option, the port the default's
        // form): one offer.
        const Catalog catalog = Catalog::load(settingsOf(m_uri));
        QVERIFY2(!catalog.error.isError(), qPrintable(catalog.error.message));
        QWidget parent;
        parent.show();
        InterruptedRunWatcher watcher;
        QSignalSpy found(&watcher, &InterruptedRunWatcher::found);
        const QString other = m_uri +
                              (m_uri.contains(QLatin1Char('?'))   ? QStringLiteral("&")
                               : m_uri.endsWith(QLatin1Char('/')) ? QStringLiteral("?")
                                                                  : QStringLiteral("/?")) +
                              QStringLiteral("connectTimeoutMS=9000");
        for (const auto &[name, uri] : {std::pair{QStringLiteral("first"), m_uri},
                                        std::pair{QStringLiteral("second"), other}}) {
            watcher.check(name, settingsOf(uri), catalog);
            QVERIFY(found.wait(30000));
            QVERIFY2(found.last()
                         .at(1)
                         .toStringList()
                         .join(QLatin1Char(' '))
                         .contains(kDb + QLatin1Char('.') + kCollection),
                     qPrintable(found.last().at(1).toStringList().join(QLatin1Char(' '))));
            watcher.offer(&parent, name);
        }
        QCOMPARE(visibleOffers(parent), 1); // offer() opens its question at once
    }
};

QTEST_MAIN(TestInterruptedRuns)
#include "tst_interruptedruns.moc"
