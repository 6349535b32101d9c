#include "explorer/MainMenus.h"

#include "dialogs/AboutBox.h"
#include "explorer/MainToolBar.h"
#include "explorer/ShortcutPriority.h"
#include "session/TreeRefresher.h"

#include <QActionGroup>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QStyle>

namespace oe {

MainMenus::MainMenus(QMainWindow *window, TreeRefresher *refresher) : QObject(window)
{
    QMenu *file = window->menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open dump…"), window, [this, window] {
        const QString path =
            QFileDialog::getOpenFileName(window, tr("Open mongodump file"), QString(),
                                         tr("BSON dumps (*.bson *.bson.gz);;All files (*)"));
        if (!path.isEmpty())
            emit openDumpRequested(path);
    });
    open->setShortcut(QKeySequence::Open);
    m_actions.connect = file->addAction(tr("&Connect…"));
    m_actions.connect->setShortcut(QKeySequence::New);
    m_actions.demo = file->addAction(tr("Open &demo data"));
    file->addSeparator();
    m_actions.exportCsv = file->addAction(tr("&Export CSV reports…"));
    m_actions.exportCsv->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_actions.exportCsv->setEnabled(false);
    m_actions.exportReport = file->addAction(tr("Export &report (HTML, PDF)…"));
    m_actions.exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_actions.exportReport->setEnabled(false);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *analysis = window->menuBar()->addMenu(tr("&Analysis"));
    m_actions.run =
        analysis->addAction(window->style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"));
    m_actions.run->setShortcut(QKeySequence(Qt::Key_F5));
    m_actions.cancel =
        analysis->addAction(window->style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"));
    m_actions.cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_actions.cancel->setEnabled(false);
    analysis->addSeparator();
    m_actions.migrate = analysis->addAction(tr("&Migrate to the outlier pattern…"));
    m_actions.migrate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    m_actions.migrate->setEnabled(false);
    m_actions.migrations = analysis->addAction(tr("Migrations on this &connection…"));
    m_actions.migrations->setEnabled(false);
    m_actions.whatIf = analysis->addAction(tr("&What if… (time appends on this server)"));
    m_actions.whatIf->setEnabled(false);
    analysis->addSeparator();
    m_actions.trends = analysis->addAction(tr("&Trends… (this source's analyses over time)"));
    m_actions.trends->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_actions.trends->setEnabled(false);
    m_actions.watch = analysis->addAction(tr("Watc&h… (documents crossing, as they do)"));
    m_actions.watch->setEnabled(false);
    new ShortcutPriority(window, {m_actions.exportCsv, m_actions.exportReport, m_actions.migrate});

    addViewMenu(window, refresher);

    QMenu *help = window->menuBar()->addMenu(tr("&Help"));
    m_actions.userGuide = help->addAction(tr("&User guide"));
    m_actions.userGuide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Outlier Explorer"), window, [window] { AboutBox::show(window); });

    MainToolBar::create(window, {open, m_actions.connect, nullptr, m_actions.run, m_actions.cancel,
                                 m_actions.exportCsv});
}

// View → Refresh the tree: on activation (a check box), and on a timer (one of its intervals).
void MainMenus::addViewMenu(QMainWindow *window, TreeRefresher *refresher)
{
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
