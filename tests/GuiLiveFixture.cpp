#include "GuiLiveFixture.h"

#include "GuiFixtures.h"
#include "charts/Format.h"
#include "explorer/MainWindow.h"
#include "models/SourceTreeModel.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTreeView>
#include <QtTest>

#include <utility>

using namespace oe;

GuiLiveFixture::GuiLiveFixture(QString database) : m_database(std::move(database)) {}

void GuiLiveFixture::openServerWithFeeds()
{
    // The window's settings in a file of this run's own: another run of the same executable
    // (a second checkout's CI, say) must not change the refresh interval this one remembers.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("OutlierExplorerTests"));
    QCoreApplication::setApplicationName(
        QStringLiteral("%1-%2-%3")
            .arg(QFileInfo(QCoreApplication::applicationFilePath()).fileName())
            .arg(QCoreApplication::applicationPid())
            .arg(QDateTime::currentMSecsSinceEpoch()));
    m_server = fixtures::LiveServer::open();
    QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
    m_uri = m_server.uri();
    m_dump = guifixtures::demoDump(m_dir.path(), QStringLiteral("activity_feeds"));
    m_ref = fixtures::readReference(m_dump);
    const QString error = importDump(m_dump, QStringLiteral("feeds"));
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

QString GuiLiveFixture::importDump(const QString &dump, const QString &collection) const
{
    QProcess cli;
    cli.start(qEnvironmentVariable("OE_CLI"),
              {QStringLiteral("import"), QStringLiteral("--uri"), m_uri, QStringLiteral("--db"),
               m_database, QStringLiteral("--collection"), collection, QStringLiteral("--dump"),
               dump, QStringLiteral("--drop")});
    if (!cli.waitForFinished(300000))
        return QStringLiteral("import did not finish in 5 minutes");
    return cli.exitCode() == 0 ? QString() : QString::fromUtf8(cli.readAllStandardError());
}

GuiLiveFixture::~GuiLiveFixture()
{
    QSettings settings;
    const QString file = settings.fileName();
    settings.clear();
    settings.sync();
    QFile::remove(file);
}

bool GuiLiveFixture::connectTo(MainWindow &window) const
{
    QSignalSpy loaded(&window, &MainWindow::connectionLoaded);
    guifixtures::showConnecting(window, m_uri);
    return loaded.wait(60000) && loaded.first().at(1).toBool();
}

void GuiLiveFixture::saveScreenshot(QWidget *widget, const QString &name) const
{
    const QString dir = qEnvironmentVariable("OE_SCREENSHOT_DIR");
    if (!dir.isEmpty() && m_server.isMongod())
        widget->grab().save(QDir(dir).filePath(name));
}

bool GuiLiveFixture::selectFeeds(MainWindow &window) const
{
    SourceTreeModel *model = window.sourceModel();
    const QModelIndex feeds =
        model->findCollection(model->index(0, 0), m_database, QStringLiteral("feeds"));
    if (!feeds.isValid())
        return false;
    window.sourceTree()->setCurrentIndex(feeds);
    return true;
}

void GuiLiveFixture::checkCatalogRows(SourceTreeModel *model, const QModelIndex &conn) const
{
    QModelIndex gui;
    for (int d = 0; d < model->rowCount(conn); ++d) {
        const QModelIndex db = model->index(d, 0, conn);
        if (db.data().toString() == m_database)
            gui = db;
        for (int c = 0; c < model->rowCount(db); ++c) {
            const QString name = model->index(c, 0, db).data().toString();
            QVERIFY2(!name.startsWith(QStringLiteral("system.")),
                     qPrintable(db.data().toString() + QLatin1Char('.') + name));
        }
    }
    QVERIFY(gui.isValid());
    if (!m_server.isMongod())
        return; // FerretDB's statistics are its SQLite storage's
    const QString bytes = Format::bytes(std::uint64_t(QFileInfo(m_dump).size()));
    QCOMPARE(model->index(0, SourceTreeModel::Size, gui).data().toString(), bytes);
    QCOMPARE(model->index(gui.row(), SourceTreeModel::Size, gui.parent()).data().toString(), bytes);
}
