// MainWindow's menus and toolbar wired to its interface: MainMenus builds them (and knows no
// MainWindow); here each action is connected, and the window keeps those it enables.
#include "explorer/MainMenus.h"
#include "explorer/MainWindow.h"

#include <QAction>

namespace oe {

void MainWindow::createActions()
{
    auto *menus = new MainMenus(this, treeRefresher());
    const MainMenus::Actions &a = menus->actions();
    connect(menus, &MainMenus::openDumpRequested, this, &MainWindow::openDump);
    connect(a.connect, &QAction::triggered, this, &MainWindow::showConnectDialog);
    connect(a.demo, &QAction::triggered, this, [this] { openDemo(); });
    connect(a.exportCsv, &QAction::triggered, this, [this] { exportReports(); });
    connect(a.exportReport, &QAction::triggered, this, [this] { exportReport(); });
    connect(a.run, &QAction::triggered, this, &MainWindow::runAnalysis);
    connect(a.cancel, &QAction::triggered, this, &MainWindow::cancelAnalysis);
    connect(a.migrate, &QAction::triggered, this, [this] { openMigrationWizard(); });
    connect(a.migrations, &QAction::triggered, this, [this] { openMigrations(); });
    connect(a.whatIf, &QAction::triggered, this, [this] { openWhatIf(); });
    connect(a.trends, &QAction::triggered, this, [this] { openTrends(); });
    connect(a.watch, &QAction::triggered, this, [this] { openWatch(); });
    connect(a.userGuide, &QAction::triggered, this, [this] { openUserGuide(); });
    m_runAction = a.run;
    m_cancelAction = a.cancel;
    m_exportAction = a.exportCsv;
    m_exportReportAction = a.exportReport;
    m_migrateAction = a.migrate;
    m_migrationsAction = a.migrations;
    m_whatIfAction = a.whatIf;
    m_trendsAction = a.trends;
    m_watchAction = a.watch;
}

} // namespace oe
