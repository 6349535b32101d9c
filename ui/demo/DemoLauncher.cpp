#include "demo/DemoLauncher.h"

#include "demo/DemoPreparer.h"
#include "explorer/MainWindow.h"
#include "models/SourceTreeModel.h"
#include "pages/AnalysisOptionsBar.h"
#include "workspace/Workspace.h"

#include <QDir>
#include <QTreeView>

namespace oe {

DemoLauncher::DemoLauncher(MainWindow *window)
    : QObject(window), m_window(window), m_preparer(new DemoPreparer(this))
{
    connect(m_preparer, &DemoPreparer::ready, this, &DemoLauncher::show);
    connect(m_preparer, &DemoPreparer::failed, this, &DemoLauncher::failed);
    connect(window, &MainWindow::demoRequested, this, [this](const QString &select, bool analyse) {
        if (analyse)
            run(select);
        else
            open(select);
    });
    connect(this, &DemoLauncher::ready, window, &MainWindow::demoReady);
    connect(this, &DemoLauncher::status, window, &MainWindow::showStatus);
    connect(this, &DemoLauncher::failed, window, &MainWindow::showDemoFailure);
}

void DemoLauncher::open(const QString &select)
{
    m_select = select;
    emit status(tr("Preparing the demo data…"));
    m_preparer->prepare();
}

void DemoLauncher::run(const QString &select)
{
    // The demo data is small: analyse it whole.
    m_window->optionsBar()->setMode(AnalysisOptions::Mode::Full);
    // The selected dataset first (it is on screen), then the others, one after the other.
    connect(
        this, &DemoLauncher::ready, this,
        [this] {
            m_window->runAnalysis();
            Workspace *workspace = m_window->workspace();
            SourceTreeModel *sources = m_window->sourceModel();
            workspace->clearQueue();
            for (const QString &path : sources->dumpPaths())
                if (const SourceRef s = sources->sourceAt(sources->findDump(path));
                    !workspace->isShown(s))
                    workspace->enqueue(m_window->optionsBar()->request(s));
        },
        Qt::SingleShotConnection);
    open(select);
}

void DemoLauncher::show(const QStringList &files, const QString &directory)
{
    for (const QString &file : files)
        m_window->sourceModel()->addDump(file);
    m_window->sourceTree()->expandAll();
    m_window->selectSource(m_select + QStringLiteral(".bson"));
    emit status(tr("Demo data ready in %1.").arg(QDir::toNativeSeparators(directory)));
    emit ready();
}

} // namespace oe
