#include "explorer/MainMenus.h"

#include "dialogs/AboutBox.h"
#include "explorer/MainToolBar.h"
#include "explorer/MainWindow.h"
#include "explorer/ShortcutPriority.h"
#include "session/TreeRefresher.h"

#include <QActionGroup>
#include <QFileDialog>
#include <QMenuBar>
#include <QStyle>

namespace oe {

MainMenus::MainMenus(MainWindow *window) : QObject(window)
{
    QMenu *file = window->menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open dump…"), window, [window] {
        const QString path =
            QFileDialog::getOpenFileName(window, tr("Open mongodump file"), QString(),
                                         tr("BSON dumps (*.bson *.bson.gz);;All files (*)"));
        if (!path.isEmpty())
            window->openDump(path);
    });
    open->setShortcut(QKeySequence::Open);
    QAction *connectAction =
        file->addAction(tr("&Connect…"), window, &MainWindow::showConnectDialog);
    connectAction->setShortcut(QKeySequence::New);
    file->addAction(tr("Open &demo data"), window, [window] { window->openDemo(); });
    file->addSeparator();
    m_actions.exportCsv =
        file->addAction(tr("&Export CSV reports…"), window, [window] { window->exportReports(); });
    m_actions.exportCsv->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_actions.exportCsv->setEnabled(false);
    m_actions.exportReport = file->addAction(tr("Export &report (HTML, PDF)…"), window,
                                             [window] { window->exportReport(); });
    m_actions.exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_actions.exportReport->setEnabled(false);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *analysis = window->menuBar()->addMenu(tr("&Analysis"));
    m_actions.run = analysis->addAction(window->style()->standardIcon(QStyle::SP_MediaPlay),
                                        tr("&Run"), window, &MainWindow::runAnalysis);
    m_actions.run->setShortcut(QKeySequence(Qt::Key_F5));
    m_actions.cancel = analysis->addAction(window->style()->standardIcon(QStyle::SP_MediaStop),
                                           tr("&Cancel"), window, &MainWindow::cancelAnalysis);
    m_actions.cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_actions.cancel->setEnabled(false);
    analysis->addSeparator();
    m_actions.migrate = analysis->addAction(tr("&Migrate to the outlier pattern…"), window,
                                            [window] { window->openMigrationWizard(); });
    m_actions.migrate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_actions.migrate->setEnabled(false);
    m_actions.migrations = analysis->addAction(tr("Migrations on this &connection…"), window,
                                               [window] { window->openMigrations(); });
    m_actions.migrations->setEnabled(false);
    m_actions.whatIf = analysis->addAction(tr("&What if… (time appends on this server)"), window,
                                           [window] { window->openWhatIf(); });
    m_actions.whatIf->setEnabled(false);
    analysis->addSeparator();
    m_actions.trends = analysis->addAction(tr("&Trends… (this source's analyses over time)"),
                                           window, [window] { window->openTrends(); });
    m_actions.trends->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_actions.trends->setEnabled(false);
    m_actions.watch = analysis->addAction(tr("Watc&h… (documents crossing, as they do)"), window,
                                          [window] { window->openWatch(); });
    m_actions.watch->setEnabled(false);
    new ShortcutPriority(window, {m_actions.exportCsv, m_actions.exportReport, m_actions.migrate});

    addViewMenu(window);

    QMenu *help = window->menuBar()->addMenu(tr("&Help"));
    QAction *guide =
        help->addAction(tr("&User guide"), window, [window] { window->openUserGuide(); });
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Outlier Explorer"), window, [window] { AboutBox::show(window); });

    MainToolBar::create(window, {open, connectAction, nullptr, m_actions.run, m_actions.cancel,
                                 m_actions.exportCsv});
}

// View → Refresh the tree: on activation (a check box), and on a timer (one of its intervals).
void MainMenus::addViewMenu(MainWindow *window)
{
    TreeRefresher *refresher = window->treeRefresher();
    QMenu *refresh = window->menuBar()->addMenu(tr("&View"))->addMenu(tr("Refresh the &tree"));
    QAction *onActivation = refresh->addAction(tr("When the window is &activated"));
    onActivation->setCheckable(true);
    onActivation->setChecked(refresher->onActivation());
    connect(onActivation, &QAction::toggled, refresher, &TreeRefresher::setOnActivation);
    refresh->addSeparator();
    auto *intervals = new QActionGroup(refresh);
    for (const int seconds : TreeRefresher::intervalChoices()) {
        const QString text = seconds == 0    ? tr("&Not on a timer")
                             : seconds < 60  ? tr("Every %1 s").arg(seconds)
                             : seconds == 60 ? tr("Every &minute")
                                             : tr("Every %1 minutes").arg(seconds / 60);
        QAction *every = refresh->addAction(text);
        every->setCheckable(true);
        every->setChecked(seconds == refresher->interval());
        every->setData(seconds);
        intervals->addAction(every);
        connect(every, &QAction::triggered, refresher,
                [refresher, seconds] { refresher->setInterval(seconds); });
    }
}

} // namespace oe
