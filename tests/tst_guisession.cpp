// The window's sources across sessions and the connection's names, against mongod: what was
// open at close (connections, dumps, analysis options) comes back at the next start without a
// password on disk; a connection renamed in the tree keeps its saved entry; `--uri` (connectUri)
// opens a saved connection under its name.
#include "CliRunner.h"
#include "GuiFixtures.h"
#include "LiveServer.h"
#include "connection/ConnectionStore.h"
#include "explorer/MainWindow.h"
#include "history/HistoryStore.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "session/SessionKeeper.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QLineEdit>
#include <QProcess>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace oe;

namespace {

QByteArray settingsFileBytes()
{
    QSettings().sync();
    QFile f(QSettings().fileName());
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Waits for `name`'s catalog in `window`; whether it loaded.
bool loaded(MainWindow &window, const QString &name)
{
    QSignalSpy spy(&window, &MainWindow::connectionLoaded);
    for (;;) {
        if (!spy.wait(60000))
            return false;
        for (const QList<QVariant> &args : spy)
            if (args.at(0).toString() == name)
                return args.at(1).toBool();
    }
}

QString childMessage(SourceTreeModel *model, const QModelIndex &connection)
{
    return model->rowCount(connection) == 1 ? model->index(0, 0, connection).data().toString()
                                            : QString();
}

} // namespace

class TestGuiSession : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    fixtures::LiveServer m_server;
    QString m_uri;
    QString m_dump;

    ConnectionSettings settingsFor(const QString &uri) const
    {
        ConnectionSettings s;
        s.uri = uri;
        return s;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("OutlierExplorerTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_guisession-%1-%2")
                                                 .arg(QCoreApplication::applicationPid())
                                                 .arg(QDateTime::currentMSecsSinceEpoch()));
        QSettings().clear();
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        m_dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("book_sales"), 300);
        QProcess cli;
        cli.start(qEnvironmentVariable("OE_CLI"),
                  {QStringLiteral("import"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
                   QStringLiteral("oe_session"), QStringLiteral("--collection"),
                   QStringLiteral("books"), QStringLiteral("--dump"), m_dump,
                   QStringLiteral("--drop")});
        QVERIFY(cli.waitForFinished(300000));
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    }
    void cleanup() { QSettings().clear(); }
    void cleanupTestCase()
    {
        QSettings settings;
        const QString file = settings.fileName();
        settings.clear();
        settings.sync();
        QFile::remove(file);
    }

    // Close with a connection, two dumps and chosen options; one dump is deleted meanwhile.
    // The next window reopens the connection (loaded), the dump that is left, the options, and
    // names the one that is gone; the settings file never holds the password.
    void theLastSessionComesBack()
    {
        const QString second = m_dir.filePath(QStringLiteral("second.bson"));
        QVERIFY(QFile::copy(m_dump, second));
        const QString secret = QStringLiteral("Pw4Session");
        {
            MainWindow window;
            window.setInteractive(false);
            window.show();
            window.addConnection(QStringLiteral("books server"), settingsFor(m_uri));
            QVERIFY(loaded(window, QStringLiteral("books server")));
            // A connection with a password the user typed (never kept) and an unreachable host.
            window.addConnection(
                QStringLiteral("locked"),
                settingsFor(QStringLiteral("mongodb://ivy:%1@127.0.0.1:1/").arg(secret)));
            window.openDump(m_dump);
            window.openDump(second);
            AnalysisOptionsBar *options = window.optionsBar();
            options->modeBox()->setCurrentIndex(
                options->modeBox()->findData(int(AnalysisOptions::Mode::Limit)));
            options->countBox()->setValue(1234);
            options->ruleBox()->setCurrentIndex(
                options->ruleBox()->findData(QStringLiteral("mad")));
            options->measureBox()->setCurrentIndex(
                options->measureBox()->findData(int(MeasureMode::Client)));
            window.close();
        }
        QVERIFY(QFile::remove(second));
        const QByteArray file = settingsFileBytes();
        QVERIFY2(file.contains("127.0.0.1:1"), file.constData());
        QVERIFY2(!file.contains(secret.toUtf8()), file.constData());

        MainWindow window;
        window.setInteractive(false);
        window.show();
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.restoreSession();
        SourceTreeModel *model = window.sourceModel();
        QCOMPARE(model->connectionNames(),
                 QStringList({QStringLiteral("books server"), QStringLiteral("locked")}));
        QCOMPARE(model->dumpPaths(), QStringList({QFileInfo(m_dump).absoluteFilePath()}));
        QVERIFY2(window.statusText().contains(QStringLiteral("Gone since")) &&
                     window.statusText().contains(second),
                 qPrintable(window.statusText()));
        QVERIFY(loaded(window, QStringLiteral("books server")));
        QVERIFY(model
                    ->findCollection(model->findConnection(QStringLiteral("books server")),
                                     QStringLiteral("oe_session"), QStringLiteral("books"))
                    .isValid());
        // No password on disk, none in the keychain: the row asks for it, nothing is tried.
        const QModelIndex locked = model->findConnection(QStringLiteral("locked"));
        QVERIFY2(childMessage(model, locked).startsWith(QStringLiteral("Needs its password")),
                 qPrintable(childMessage(model, locked)));
        QVERIFY(!model->settingsOf(locked).uri.contains(secret));
        // Issue 35: said on the connection's own row as well, seen with the row closed.
        window.sourceTree()->collapse(locked);
        const QModelIndex lockedStatus = locked.siblingAtColumn(SourceTreeModel::Documents);
        QCOMPARE(lockedStatus.data().toString(), QStringLiteral("Needs its password"));
        QVERIFY2(locked.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Recent")),
                 qPrintable(locked.data(Qt::ToolTipRole).toString()));
        const QRect statusRect = window.sourceTree()->visualRect(lockedStatus);
        QVERIFY(statusRect.isValid());
        QVERIFY2(statusRect.width() >= window.sourceTree()->fontMetrics().horizontalAdvance(
                                           lockedStatus.data().toString()),
                 "the status is cut short");
        AnalysisOptionsBar *options = window.optionsBar();
        QCOMPARE(AnalysisOptions::Mode(options->modeBox()->currentData().toInt()),
                 AnalysisOptions::Mode::Limit);
        QCOMPARE(options->countBox()->value(), 1234);
        QCOMPARE(options->ruleBox()->currentData().toString(), QStringLiteral("mad"));
        QCOMPARE(MeasureMode(options->measureBox()->currentData().toInt()), MeasureMode::Client);
        QCOMPARE(errors.count(), 0);
    }

    // Issue 35: after a reconnect (a replica set restarted) the tree opened every database,
    // config and local among them. The server's own databases are not listed; a reconnect,
    // and a dump opened later, leave open what the user opened, and only that.
    void reconnectKeepsWhatTheUserOpened()
    {
        MainWindow window;
        window.setInteractive(false);
        window.show();
        const QString name = QStringLiteral("replica");
        window.addConnection(name, settingsFor(m_uri));
        QVERIFY(loaded(window, name));
        SourceTreeModel *model = window.sourceModel();
        QTreeView *tree = window.sourceTree();
        const auto databases = [&] {
            QStringList names;
            const QModelIndex conn = model->findConnection(name);
            for (int row = 0; row < model->rowCount(conn); ++row)
                names << model->index(row, 0, conn).data().toString();
            return names;
        };
        const auto opened = [&] {
            QStringList names;
            const QModelIndex conn = model->findConnection(name);
            for (int row = 0; row < model->rowCount(conn); ++row)
                if (tree->isExpanded(model->index(row, 0, conn)))
                    names << model->index(row, 0, conn).data().toString();
            return names;
        };
        const QStringList listed = databases();
        QVERIFY2(listed.contains(QStringLiteral("oe_session")),
                 qPrintable(listed.join(QLatin1Char(','))));
        for (const char *server : {"admin", "config", "local"})
            QVERIFY2(!listed.contains(QLatin1String(server)),
                     qPrintable(listed.join(QLatin1Char(','))));
        QVERIFY(tree->isExpanded(model->findConnection(name)));
        QCOMPARE(opened(), QStringList());

        const QModelIndex conn = model->findConnection(name);
        tree->expand(model->index(int(listed.indexOf(QStringLiteral("oe_session"))), 0, conn));
        QCOMPARE(opened(), QStringList{QStringLiteral("oe_session")});
        window.openDump(m_dump);
        QCOMPARE(opened(), QStringList{QStringLiteral("oe_session")});

        window.addConnection(name, settingsFor(m_uri)); // connect again, as after a restart
        QVERIFY(loaded(window, name));
        QCOMPARE(databases(), listed);
        QVERIFY(tree->isExpanded(model->findConnection(name)));
        QCOMPARE(opened(), QStringList{QStringLiteral("oe_session")});
    }

    // A restored connection that fails says so in its row, not in a dialog.
    void aRestoredFailureStaysInItsRow()
    {
        {
            MainWindow window;
            window.setInteractive(false);
            window.addConnection(QStringLiteral("gone"),
                                 settingsFor(QStringLiteral("mongodb://127.0.0.1:1/")));
            window.close();
        }
        MainWindow window;
        window.setInteractive(false);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.restoreSession();
        QVERIFY(!loaded(window, QStringLiteral("gone")));
        QCOMPARE(errors.count(), 0);
        const QModelIndex gone = window.sourceModel()->findConnection(QStringLiteral("gone"));
        QVERIFY(gone.isValid());
        QVERIFY2(!childMessage(window.sourceModel(), gone).isEmpty(), "no message in the row");
    }

    // Rename (the tree's menu): the row, its collections' sources and the saved connection
    // follow; a name another connection has is refused.
    void renameFollowsTheSavedConnection()
    {
        RecentConnection saved;
        saved.name = QStringLiteral("before");
        saved.uri = m_uri;
        ConnectionStore::remember(saved);
        MainWindow window;
        window.setInteractive(false);
        window.show();
        window.addConnection(QStringLiteral("before"), settingsFor(m_uri));
        QVERIFY(loaded(window, QStringLiteral("before")));
        window.addConnection(QStringLiteral("neighbour"),
                             settingsFor(QStringLiteral("mongodb://127.0.0.1:1/")));
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex connection = model->findConnection(QStringLiteral("before"));
        QStringList offered;
        for (QAction *action : window.sourceActions(connection))
            offered << action->text();
        QVERIFY2(offered.contains(QStringLiteral("Re&name…")),
                 qPrintable(offered.join(QLatin1Char(','))));

        QVERIFY(!window.renameConnection(connection, QStringLiteral("neighbour")));
        QVERIFY2(window.statusText().contains(QStringLiteral("Another connection is named")),
                 qPrintable(window.statusText()));
        QVERIFY(window.renameConnection(connection, QStringLiteral("after")));
        QVERIFY(!model->findConnection(QStringLiteral("before")).isValid());
        const QModelIndex books =
            model->findCollection(model->findConnection(QStringLiteral("after")),
                                  QStringLiteral("oe_session"), QStringLiteral("books"));
        QVERIFY(books.isValid());
        QCOMPARE(model->sourceAt(books).connectionName, QStringLiteral("after"));
        window.sourceTree()->setCurrentIndex(books);
        QVERIFY(!ConnectionStore::findByName(QStringLiteral("before")));
        const auto renamed = ConnectionStore::findByName(QStringLiteral("after"));
        QVERIFY(renamed.has_value());
        QCOMPARE(renamed->uri, ConnectionStore::findByUri(m_uri)->uri);
    }

    // `outlier-explorer --uri` of a saved connection opens it under its saved name (and TLS
    // files); an unsaved one goes under its hosts.
    void uriKeepsTheSavedName()
    {
        RecentConnection saved;
        saved.name = QStringLiteral("reporting replica");
        saved.uri = m_uri;
        ConnectionStore::remember(saved);
        MainWindow window;
        window.setInteractive(false);
        window.show();
        window.connectUri(m_uri);
        QVERIFY(loaded(window, QStringLiteral("reporting replica")));
        QCOMPARE(window.sourceModel()->connectionNames(),
                 QStringList({QStringLiteral("reporting replica")}));

        ConnectionStore::forget(QStringLiteral("reporting replica"));
        MainWindow other;
        other.setInteractive(false);
        other.connectUri(m_uri);
        const QStringList names = other.sourceModel()->connectionNames();
        QCOMPARE(names.size(), 1);
        QVERIFY2(m_uri.contains(names.first()), qPrintable(names.first()));
    }

    // The window's analyses go into the same history as the CLI's: one run each, the same
    // figures, told apart by their origin, under a key without credentials.
    void historyKeepsTheWindowsAndTheClisRuns()
    {
        const QString history = m_dir.filePath(QStringLiteral("history.sqlite"));
        qputenv("OE_HISTORY_DB", history.toUtf8());
        const CliRun cli = runCli({QStringLiteral("analyze"), QStringLiteral("--uri"), m_uri,
                                   QStringLiteral("--db"), QStringLiteral("oe_session"),
                                   QStringLiteral("--collection"), QStringLiteral("books"),
                                   QStringLiteral("--full"), QStringLiteral("--out"),
                                   m_dir.filePath(QStringLiteral("cli-reports"))});
        QVERIFY2(cli.exitCode == 0, qPrintable(cli.err));

        MainWindow window;
        window.setInteractive(false);
        window.show();
        window.addConnection(QStringLiteral("books server"), settingsFor(m_uri));
        QVERIFY(loaded(window, QStringLiteral("books server")));
        SourceTreeModel *model = window.sourceModel();
        const QModelIndex books =
            model->findCollection(model->findConnection(QStringLiteral("books server")),
                                  QStringLiteral("oe_session"), QStringLiteral("books"));
        window.sourceTree()->setCurrentIndex(books);
        window.optionsBar()->setMode(AnalysisOptions::Mode::Full);
        QSignalSpy finished(&window, &MainWindow::analysisFinished);
        window.runAnalysis();
        QVERIFY(finished.wait(120000));
        qunsetenv("OE_HISTORY_DB");

        const HistoryStore store(history);
        const std::vector<HistoryRun> runs =
            store.runs(HistoryStore::sourceKeyOf(model->sourceAt(books)));
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].origin, QStringLiteral("cli"));
        QCOMPARE(runs[1].origin, QStringLiteral("gui"));
        QCOMPARE(runs[0].documents, std::uint64_t(300));
        QCOMPARE(runs[1].documents, runs[0].documents);
        QCOMPARE(runs[1].sizeMax, runs[0].sizeMax);
        QCOMPARE(runs[1].longestArray, runs[0].longestArray);
        QCOMPARE(store.paths(runs[1].id).size(), store.paths(runs[0].id).size());
        QVERIFY(!runs[0].sourceKey.contains(QLatin1Char('@')));
    }
};

QTEST_MAIN(TestGuiSession)
#include "tst_guisession.moc"
