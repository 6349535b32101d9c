#include "explorer/MainWindow.h"

#include "dialogs/UserGuide.h"
#include "dialogs/WhatIfDialog.h"
#include "session/CatalogLoader.h"
#include "widgets/ReportExporter.h"

#include "charts/Format.h"
#include "connection/ConnectPrompt.h"
#include "dialogs/MigrationsDialog.h"
#include "explorer/DialogLauncher.h"
#include "explorer/SourceTreeMenu.h"
#include "jobs/LatestJob.h"
#include "jobs/MigrationRunner.h"
#include "models/SourceTreeModel.h"
#include "mongo/Catalog.h"
#include "mongo/UriRedactor.h"
#include "pages/AnalysisOptionsBar.h"
#include "pages/ArraysPage.h"
#include "pages/CollectionView.h"
#include "report/ReportWriter.h"
#include "session/InterruptedRunWatcher.h"
#include "session/LayoutSettings.h"
#include "session/MigrationFollower.h"
#include "session/SessionKeeper.h"
#include "session/TreeRefresher.h"
#include "viewer/DocumentOpener.h"
#include "viewer/ErrorNotice.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardRemedy.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace oe {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_sources(new SourceTreeModel(this)), m_tree(new QTreeView(this)),
      m_options(new AnalysisOptionsBar(this)), m_stack(new QStackedWidget(this)),
      m_empty(new QLabel(this)), m_view(new CollectionView(this)),
      m_splitter(new QSplitter(Qt::Horizontal, this)), m_status(new QLabel(this)),
      m_progress(new QProgressBar(this)), m_workspace(new Workspace(this)),
      m_documents(new DocumentOpener(this)), m_catalogs(new CatalogLoader(this)),
      m_reportExporter(new ReportExporter(this)), m_connect(new ConnectPrompt(this)),
      m_interrupted(new InterruptedRunWatcher(this)),
      m_sourceMenu(new SourceTreeMenu(m_sources, m_tree, m_workspace)),
      m_follower(new MigrationFollower(m_workspace, this)),
      m_session(new SessionKeeper(m_sources, m_options, this)),
      m_dialogs(new DialogLauncher(this, m_tree, m_sources, m_view, m_follower, m_documents)),
      m_refresher(new TreeRefresher(this, m_sources, m_workspace))
{
    setWindowTitle(tr("Outlier Explorer"));
    createLayout();
    createActions();

    wire();
    restoreLayout();
}

MainWindow::~MainWindow() = default;

void MainWindow::createLayout()
{
    m_tree->setModel(m_sources);
    m_tree->setObjectName(QStringLiteral("sourceTree"));
    m_tree->header()->setSectionResizeMode(SourceTreeModel::Name, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(SourceTreeModel::Documents,
                                           QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(SourceTreeModel::Size, QHeaderView::ResizeToContents);
    m_tree->setUniformRowHeights(true);
    m_tree->setToolTip(tr("Connections, databases, collections and dump files. Select one and "
                          "press Run (F5)."));

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setTextFormat(Qt::RichText);
    m_empty->setText(tr("<h2>Find the documents that grow without bound</h2>"
                        "<p><b>File → Open dump…</b> (Ctrl+O) to read a mongodump .bson file,<br>"
                        "<b>File → Connect…</b> (Ctrl+N) to browse a cluster, or<br>"
                        "<b>File → Open demo data</b> to try it with no server at all.</p>"
                        "<p>Then select a collection on the left and press <b>Run</b> (F5).</p>"));
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_view);

    auto *centre = new QWidget(this);
    auto *centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(4, 4, 4, 4);
    centreLayout->addWidget(m_options);
    centreLayout->addWidget(m_stack, 1);
    m_splitter->addWidget(m_tree);
    m_splitter->addWidget(centre);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setSizes({340, 1060});
    setCentralWidget(m_splitter);

    m_progress->setMaximumWidth(220);
    m_progress->setVisible(false);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    m_status->setText(tr("Ready."));
}

void MainWindow::wire()
{
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &MainWindow::currentSourceChanged);
    connect(m_tree, &QTreeView::activated, this, [this](const QModelIndex &index) {
        if (m_sources->sourceAt(index).isValid())
            runAnalysis();
    });
    connect(m_catalogs, &CatalogLoader::loaded, this, &MainWindow::showCatalog);
    connect(m_tree, &QTreeView::expanded, this, [this](const QModelIndex &index) {
        if (m_sources->kindOf(index) == SourceTreeModel::Kind::Database)
            m_openDatabases[index.parent().data().toString()].insert(index.data().toString());
    });
    connect(m_tree, &QTreeView::collapsed, this, [this](const QModelIndex &index) {
        if (m_sources->kindOf(index) == SourceTreeModel::Kind::Database)
            m_openDatabases[index.parent().data().toString()].remove(index.data().toString());
    });
    connect(m_sourceMenu, &SourceTreeMenu::refreshRequested, this, &MainWindow::loadCatalog);
    connect(m_follower, &MigrationFollower::catalogChanged, this, [this](const QString &name) {
        if (m_sources->findConnection(name).isValid())
            loadCatalog(name);
    });
    connect(m_follower, &MigrationFollower::reanalysing, this, [this](const QString &source) {
        m_status->setText(tr("%1 changed: analysing it again…").arg(source));
    });
    connect(m_sourceMenu, &SourceTreeMenu::refused, m_status, &QLabel::setText);
    connect(m_sourceMenu, &SourceTreeMenu::closed, this, [this](const QString &name) {
        m_status->setText(tr("Closed %1.").arg(name));
        if (!m_sources->sourceAt(m_tree->currentIndex()).isValid())
            m_stack->setCurrentWidget(m_empty);
    });
    wireSession();
    connect(m_connect, &ConnectPrompt::keychainFailed, this, [this](const QString &error) {
        showError(ErrorNotice::of(tr("Remember password"),
                                  tr("The system keychain did not store the password; it was "
                                     "not saved anywhere else."),
                                  error, SourceError::Kind::Usage));
    });
    connect(m_reportExporter, &ReportExporter::finished, this,
            [this](bool ok, const QString &message) {
                if (ok)
                    m_status->setText(tr("Report written to %1.").arg(message));
                else
                    showError(ErrorNotice::of(tr("Export report"),
                                              tr("The report could not be written."), message));
                emit reportExported(ok, message);
            });
    connect(m_reportExporter, &ReportExporter::csvFinished, this,
            [this](bool ok, const QString &message) {
                if (ok)
                    m_status->setText(tr("Reports written to %1.").arg(message));
                else
                    showError(ErrorNotice::of(tr("Export"), tr("The reports could not be written."),
                                              message));
                emit reportsExported(ok, message);
            });
    connect(m_options, &AnalysisOptionsBar::runRequested, this, &MainWindow::runAnalysis);
    connect(m_options, &AnalysisOptionsBar::cancelRequested, this, &MainWindow::cancelAnalysis);
    connect(m_workspace, &Workspace::runningChanged, this, [this](bool running) {
        m_options->setRunning(running);
        m_runAction->setEnabled(!running);
        m_cancelAction->setEnabled(running);
        m_progress->setVisible(running);
    });
    connect(m_workspace, &Workspace::progressed, this, &MainWindow::showProgress);
    connect(m_workspace, &Workspace::landing, this, [this](const AnalysisResult &result) {
        if (m_workspace->isShown(result.request.source))
            m_view->showTab(QStringLiteral("overview"));
    });
    connect(m_workspace, &Workspace::finished, this, &MainWindow::showResult);
    connect(m_view, &CollectionView::documentRequested, this, &MainWindow::openDocument);
    connect(m_view, &CollectionView::migrateRequested, this, [this] { openMigrationWizard(); });
    connect(m_view, &CollectionView::rewriteRequested, m_dialogs,
            [this](const SourceRef &source, const RewriteConfig &config) {
                m_dialogs->rewrite(source, config);
            });
    connect(m_view, &CollectionView::typeGuardRequested, m_dialogs,
            [this](const SourceRef &source, const GuardRule &rule) {
                m_dialogs->typeGuard(source, rule);
            });
    connect(m_interrupted, &InterruptedRunWatcher::found, this, &MainWindow::offerInterrupted);
    connect(m_follower, &MigrationFollower::followed, m_interrupted,
            &InterruptedRunWatcher::follow);
    connect(m_follower, &MigrationFollower::collectionWritten, m_view,
            &CollectionView::collectionWritten);
    connect(m_interrupted, &InterruptedRunWatcher::openRequested, m_dialogs,
            &DialogLauncher::migrationsOf);
    connect(m_documents, &DocumentOpener::status, m_status, &QLabel::setText);
    connect(m_documents, &DocumentOpener::failed, this, &MainWindow::showError);
}

// The tree's connections and dumps across sessions, and renamed connections.
void MainWindow::wireSession()
{
    connect(m_session, &SessionKeeper::dumpRequested, this, &MainWindow::openDump);
    connect(m_session, &SessionKeeper::connectionRequested, this, &MainWindow::addConnection);
    connect(m_session, &SessionKeeper::restored, m_status, &QLabel::setText);
    connect(m_session, &SessionKeeper::keychainFailed, m_status, [this](const QString &error) {
        m_status->setText(tr("The system keychain did not answer: %1").arg(error));
    });
    connect(m_sourceMenu, &SourceTreeMenu::renamed, this,
            [this](const QString &from, const QString &to) {
                m_session->renameSaved(from, to,
                                       m_sources->settingsOf(m_sources->findConnection(to)));
                m_status->setText(tr("Renamed %1 to %2.").arg(from, to));
                currentSourceChanged();
            });
}

void MainWindow::restoreSession()
{
    m_session->restore();
}

void MainWindow::connectUri(const QString &uri)
{
    m_session->connectUri(uri);
}

bool MainWindow::renameConnection(const QModelIndex &connection, const QString &name)
{
    return m_sourceMenu->rename(connection, name);
}

QList<QAction *> MainWindow::sourceActions(const QModelIndex &index)
{
    return m_sourceMenu->actionsFor(index);
}

bool MainWindow::closeSource(const QModelIndex &index)
{
    return m_sourceMenu->close(index);
}

// The guide, with the shortcuts as the menus' actions have them now.
UserGuide *MainWindow::openUserGuide()
{
    return m_dialogs->userGuide();
}

void MainWindow::restoreLayout()
{
    LayoutSettings::restore(this, m_splitter, m_view->arrays()->splitter());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    LayoutSettings::save(this, m_splitter, m_view->arrays()->splitter());
    m_session->save();
    m_workspace->clearQueue();
    m_workspace->cancel();
    QMainWindow::closeEvent(event);
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::openDump(const QString &path)
{
    const QModelIndex index = m_sources->addDump(path);
    m_tree->expand(index.parent()); // its group only: the connections stay as the user left them
    m_tree->setCurrentIndex(index);
}

void MainWindow::addConnection(const QString &name, const ConnectionSettings &settings, bool quiet)
{
    if (quiet)
        m_quietConnections.insert(name);
    else
        m_quietConnections.remove(name);
    const QModelIndex index = m_sources->addConnection(name, settings);
    m_tree->expand(index);
    loadCatalog(name);
}

void MainWindow::loadCatalog(const QString &name)
{
    const ConnectionSettings settings = m_sources->settingsOf(m_sources->findConnection(name));
    m_status->setText(tr("Connecting to %1…").arg(UriRedactor::redact(settings.uri)));
    m_catalogs->load(name, settings);
}

void MainWindow::showCatalog(const QString &name, const Catalog &catalog)
{
    const QModelIndex index = m_sources->findConnection(name);
    if (!index.isValid())
        return;
    // A reload (a reconnect, a refresh) keeps the collection selected and the databases the
    // user had open, and only those (its rows are made anew).
    const SourceRef current = m_sources->sourceAt(m_tree->currentIndex());
    m_sources->setCatalog(index, catalog);
    const QSet<QString> open = m_openDatabases.value(name);
    for (int row = 0; row < m_sources->rowCount(index); ++row)
        if (const QModelIndex db = m_sources->index(row, 0, index);
            m_sources->kindOf(db) == SourceTreeModel::Kind::Database &&
            open.contains(db.data().toString()))
            m_tree->expand(db);
    if (current.kind == SourceRef::Kind::Collection && current.connectionName == name)
        if (const QModelIndex again =
                m_sources->findCollection(index, current.database, current.collection);
            again.isValid())
            m_tree->setCurrentIndex(again);
    m_tree->expand(index);
    const bool ok = !catalog.error.isError();
    m_status->setText(ok ? tr("Connected to %1.").arg(name)
                         : tr("Could not connect to %1.").arg(name));
    const bool quiet = m_quietConnections.remove(name); // a restored one says so in its row
    if (!ok && !quiet)
        showError(ErrorNotice::of(
            tr("Connect"), tr("Could not list the databases of %1.").arg(name), catalog.error));
    emit connectionLoaded(name, ok);
    if (ok)
        m_interrupted->check(name, m_sources->settingsOf(index), catalog);
}

void MainWindow::showConnectDialog()
{
    if (const auto answer = m_connect->ask(this))
        addConnection(answer->name, answer->settings);
}

void MainWindow::showStatus(const QString &text)
{
    m_status->setText(text);
}

void MainWindow::showDemoFailure(const QString &error)
{
    showError(ErrorNotice::of(tr("Demo data"), tr("The demo data could not be written."), error));
}

bool MainWindow::selectSource(const QString &displayName)
{
    const QModelIndexList hits =
        m_sources->match(m_sources->index(0, 0), Qt::DisplayRole, displayName, 1,
                         Qt::MatchExactly | Qt::MatchRecursive);
    if (hits.isEmpty())
        return false;
    m_tree->setCurrentIndex(hits.first());
    return true;
}

void MainWindow::currentSourceChanged()
{
    const SourceRef source = m_sources->sourceAt(m_tree->currentIndex());
    m_workspace->setShown(source);
    m_options->setSource(source);
    m_migrationsAction->setEnabled(currentConnection().isValid());
    m_whatIfAction->setEnabled(currentConnection().isValid());
    m_trendsAction->setEnabled(source.isValid());
    m_watchAction->setEnabled(source.kind == SourceRef::Kind::Collection);
    if (!source.isValid()) {
        m_options->showMeasured(nullptr);
        return;
    }
    SourceState *state = m_workspace->stateOf(source);
    m_options->showMeasured(state->hasResult() ? &state->analysis() : nullptr);
    m_view->setState(state);
    m_view->setSource(source);
    if (state->hasResult()) {
        m_stack->setCurrentWidget(m_view);
        updateActions();
        const CollectionProfile &p = state->analysis().profile;
        m_status->setText(tr("%1: %2 documents analysed (%3).")
                              .arg(source.displayName(), Format::count(p.documents), p.mode));
    } else if (m_workspace->isAnalysing(source)) {
        m_stack->setCurrentWidget(m_view);
        m_status->setText(tr("Analysing %1…").arg(source.displayName()));
    } else if (source.kind == SourceRef::Kind::Collection) {
        // A collection can be browsed before any analysis: its Documents tab.
        m_stack->setCurrentWidget(m_view);
        m_view->showTab(QStringLiteral("documents"));
        updateActions();
        m_status->setText(tr("%1: browse its documents, or press Run (F5) to analyse.")
                              .arg(source.displayName()));
    } else {
        m_stack->setCurrentWidget(m_empty);
        updateActions();
        m_status->setText(tr("%1: press Run (F5) to analyse.").arg(source.displayName()));
    }
}

QModelIndex MainWindow::currentConnection() const
{
    QModelIndex index = m_tree->currentIndex();
    while (index.parent().isValid())
        index = index.parent();
    return index.isValid() && m_sources->kindOf(index) == SourceTreeModel::Kind::Connection
               ? index
               : QModelIndex();
}

MigrationsDialog *MainWindow::openMigrations()
{
    return m_dialogs->migrations();
}

WhatIfDialog *MainWindow::openWhatIf()
{
    return m_dialogs->whatIf();
}

TrendsDialog *MainWindow::openTrends()
{
    return m_dialogs->trends();
}

WatchDialog *MainWindow::openWatch()
{
    return m_dialogs->watch();
}

// A run the journal says was interrupted (the app closed or crashed mid-split): offered at once.
void MainWindow::offerInterrupted(const QString &name, const QStringList &runs)
{
    emit interruptedMigrationsFound(name, runs);
    const QString offer =
        tr("%1: an interrupted migration can be resumed (Analysis → Migrations).").arg(name);
    if (runs.isEmpty()) { // resumed, or rolled back, since the offer: it goes
        if (m_status->text() == offer)
            m_status->setText(tr("%1: no interrupted migration left.").arg(name));
        return;
    }
    m_status->setText(offer);
    if (m_interactive)
        m_interrupted->offer(this, name);
}

void MainWindow::updateActions()
{
    const SourceState *state = m_view->state();
    const bool analysed = state->hasResult() && state->result().profile.documents > 0;
    m_exportAction->setEnabled(analysed);
    m_exportReportAction->setEnabled(analysed);
    m_migrateAction->setEnabled(analysed && (!state->analysis().preferredSplitPath().empty() ||
                                             !WizardRemedy::candidates(state->analysis()).empty()));
}

MigrationWizard *MainWindow::openMigrationWizard()
{
    SourceState *state = m_view->state();
    if (!state->hasResult() ||
        (state->path().isEmpty() && WizardRemedy::candidates(state->analysis()).empty())) {
        m_status->setText(tr("Analyse a source with outliers first: the wizard starts from them."));
        return nullptr;
    }
    return m_dialogs->migrationWizard(m_workspace);
}

void MainWindow::runAnalysis()
{
    runAnalysisOf(m_sources->sourceAt(m_tree->currentIndex()));
}

void MainWindow::runAnalysisOf(const SourceRef &source)
{
    if (const QString problem = m_options->problem(); !problem.isEmpty()) {
        m_status->setText(problem);
        return;
    }
    if (!m_workspace->analyse(m_options->request(source)))
        return;
    updateActions();
    m_progress->setRange(0, 0);
    if (m_workspace->isShown(source)) {
        m_options->showMeasured(nullptr); // until this run says
        m_stack->setCurrentWidget(m_view);
        m_view->showTab(QStringLiteral("sizes"));
        m_status->setText(tr("Analysing %1…").arg(source.displayName()));
    }
}

void MainWindow::cancelAnalysis()
{
    if (!m_workspace->isRunning())
        return;
    m_workspace->cancel();
    m_status->setText(tr("Cancelling…"));
}

void MainWindow::showProgress(const SourceRef &source, const AnalysisProgress &progress)
{
    if (const auto f = progress.fraction()) {
        m_progress->setRange(0, 1000);
        m_progress->setValue(int(*f * 1000));
    }
    // A source analysed in the background (the demo's others) keeps to itself.
    if (!m_workspace->isShown(source))
        return;
    m_status->setText(progress.text());
    m_view->showProgress(progress);
}

void MainWindow::showResult(const AnalysisResult &result)
{
    // The workspace put the result in the source's state already (the view went to the
    // overview just before).
    const CollectionProfile &p = result.profile;
    const bool current = m_workspace->isShown(result.request.source);
    updateActions();
    if (!current && p.status != CollectionProfile::Status::Failed) {
        emit analysisFinished(result);
        return;
    }
    m_status->setText(Format::analysisStatus(result));
    m_options->showMeasured(&result);
    if (p.status == CollectionProfile::Status::Failed)
        showError(ErrorNotice::of(
            tr("Analysis"),
            tr("The analysis of %1 stopped.").arg(result.request.source.displayName()), p.error));
    emit analysisFinished(result);
}

void MainWindow::showError(const ErrorNotice &notice)
{
    m_lastError = notice;
    emit errorShown(notice.headline);
    if (!m_interactive)
        return;
    auto *box =
        new QMessageBox(QMessageBox::Warning, notice.title, notice.headline, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!notice.details.isEmpty())
        box->setDetailedText(notice.details);
    box->setInformativeText(notice.advice);
    box->open();
}

void MainWindow::openDocument(const OutlierRow &row)
{
    m_documents->open(m_view->result().request.source, row.docIndex, row.id);
}

void MainWindow::exportReport(const QString &file)
{
    if (!m_view->hasResult() || (file.isEmpty() && !m_interactive))
        return;
    const SourceState *state = m_view->state();
    ReportOptions options;
    options.pageSize = ReportExporter::localPageSize();
    if (!state->path().isEmpty())
        options.layout = state->splitConfig(); // the keep chosen on Arrays
    m_reportExporter->exportReport(m_view->result(), options, file);
}

void MainWindow::exportReports(const QString &chosen)
{
    if (!m_view->hasResult() || (chosen.isEmpty() && !m_interactive))
        return;
    const QString directory =
        chosen.isEmpty() ? QFileDialog::getExistingDirectory(this, tr("Export CSV reports into"))
                         : chosen;
    if (!directory.isEmpty())
        m_reportExporter->exportCsv(m_view->result(), directory);
}

} // namespace oe
