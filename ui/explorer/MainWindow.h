#pragma once

#include "explore/AnalysisResult.h"
#include "mongo/ConnectionSettings.h"
#include "viewer/ErrorNotice.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QSet>

class QLabel;
class QProgressBar;
class QSplitter;
class QStackedWidget;
class QTreeView;

namespace oe {

class AnalysisOptionsBar;
class CollectionView;
class DocumentOpener;
class InterruptedRunWatcher;
class LatestJob;
class MigrationWizard;
class MigrationRunner;
struct SplitConfig;
class CatalogLoader;
struct Catalog;
class ReportExporter;
class WhatIfDialog;
class UserGuide;
class MigrationsDialog;
struct Catalog;
class ConnectPrompt;
class SourceState;
class SourceTreeModel;
class SourceTreeMenu;
class MigrationFollower;
class SessionKeeper;
class DialogLauncher;
class TrendsDialog;
class TreeRefresher;
class WatchDialog;
class Workspace;
struct SourceRef;
struct AnalysisProgress;

// The main window: lays out and wires the source tree, the options bar, the workspace (the
// open sources and their analyses), the collection view, the document viewer and the status
// bar. It holds no state of the sources and no analysis logic of its own.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void openDump(const QString &path);
    // `quiet`: a failure shows in the tree's row only (a connection of the last session).
    void addConnection(const QString &name, const ConnectionSettings &settings, bool quiet = false);
    // Reopens the connections, dumps and analysis options open at the last close.
    void restoreSession();
    // Connects `uri` under its saved connection's name (and keychain password) if it has one.
    void connectUri(const QString &uri);
    // Another name for a connection (its saved entry follows); false when taken or busy.
    bool renameConnection(const QModelIndex &connection, const QString &name);
    // Asks for the built-in demo datasets (written once, into the cache) opened (demoRequested:
    // the demo room's DemoLauncher answers, which the entry point attaches).
    void openDemo(const QString &select = QStringLiteral("activity_feeds"))
    {
        emit demoRequested(select, false);
    }
    // The demo as `outlier-explorer --demo` shows it: the data opened, `select` analysed whole.
    void runDemo(const QString &select) { emit demoRequested(select, true); }
    // What the demo reports back: a status line, a failure to write its data.
    void showStatus(const QString &text);
    void showDemoFailure(const QString &error);
    bool selectSource(const QString &displayName);
    void runAnalysis(); // the selected source
    void runAnalysisOf(const SourceRef &source);
    void cancelAnalysis();
    void showConnectDialog();
    void exportReports(const QString &directory = {});
    // File → Export report…: one HTML or PDF file (a dialog asks where unless `file` is given).
    void exportReport(const QString &file = {});
    // The guided migration for the current source, from its state; null (and a status line)
    // without an analysed array.
    MigrationWizard *openMigrationWizard();
    // The runs recorded in the current connection's journals; null without a connection.
    MigrationsDialog *openMigrations();
    // The what-if benchmark on the current connection; null without one.
    WhatIfDialog *openWhatIf();
    // The current source's analyses over time (Ctrl+T); null without a source.
    TrendsDialog *openTrends();
    // The growth watch on the current collection; null unless a collection is selected.
    WatchDialog *openWatch();
    // Help → User guide (F1).
    UserGuide *openUserGuide();
    // What the source tree's context menu offers for the row at `index`: Refresh and
    // Disconnect for a connection (or anything under it), Close for a dump.
    QList<QAction *> sourceActions(const QModelIndex &index);
    // Closes a connection or a dump (not while it is being analysed: false and a status line).
    bool closeSource(const QModelIndex &index);

    SourceTreeModel *sourceModel() const { return m_sources; }
    QTreeView *sourceTree() const { return m_tree; }
    CollectionView *collectionView() const { return m_view; }
    AnalysisOptionsBar *optionsBar() const { return m_options; }
    Workspace *workspace() const { return m_workspace; }
    TreeRefresher *treeRefresher() const { return m_refresher; }
    QAction *exportAction() const { return m_exportAction; }
    QAction *exportReportAction() const { return m_exportReportAction; }
    QString statusText() const;
    // The last failure's headline (one line, with its cause), and the whole notice.
    QString lastError() const { return m_lastError.headline; }
    const ErrorNotice &lastErrorNotice() const { return m_lastError; }
    // Dialogs that would wait for a user (error boxes) are skipped, for scripted runs.
    void setInteractive(bool interactive) { m_interactive = interactive; }

signals:
    void analysisFinished(const oe::AnalysisResult &result);
    void connectionLoaded(const QString &name, bool ok);
    void demoRequested(const QString &select, bool analyse);
    void demoReady();
    void errorShown(const QString &message);
    // After a connection's catalog loads: the runs its journals record as interrupted.
    void interruptedMigrationsFound(const QString &connection, const QStringList &runs);
    void reportsExported(bool ok, const QString &message);
    void reportExported(bool ok, const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createLayout();
    void createActions();
    void wire();
    void currentSourceChanged();
    void showProgress(const SourceRef &source, const AnalysisProgress &progress);
    void showResult(const AnalysisResult &result);
    void showError(const ErrorNotice &notice);
    void openDocument(const OutlierRow &row);
    void loadCatalog(const QString &name);
    void showCatalog(const QString &name, const Catalog &catalog);
    void updateActions();
    QModelIndex currentConnection() const;
    void offerInterrupted(const QString &name, const QStringList &runs);
    void restoreLayout();
    void wireSession();

    SourceTreeModel *m_sources;
    QTreeView *m_tree;
    AnalysisOptionsBar *m_options;
    QStackedWidget *m_stack;
    QLabel *m_empty;
    CollectionView *m_view;
    QSplitter *m_splitter;
    QLabel *m_status;
    QProgressBar *m_progress;
    Workspace *m_workspace; // the open sources, their states and analyses
    DocumentOpener *m_documents;
    CatalogLoader *m_catalogs;
    ReportExporter *m_reportExporter; // CSV reports and the HTML/PDF report
    ConnectPrompt *m_connect;
    InterruptedRunWatcher *m_interrupted;
    SourceTreeMenu *m_sourceMenu;
    MigrationFollower *m_follower;
    SessionKeeper *m_session;
    DialogLauncher *m_dialogs;
    TreeRefresher *m_refresher;       // the tree follows the servers
    QSet<QString> m_quietConnections; // restored: a failure is shown in the tree only
    // The databases the user opened, by connection: a reconnect or a refresh makes the rows
    // anew (the tree forgets), and opens these again, only these.
    QHash<QString, QSet<QString>> m_openDatabases;
    ErrorNotice m_lastError;
    bool m_interactive = true;
    QAction *m_runAction = nullptr;
    QAction *m_cancelAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_exportReportAction = nullptr;
    QAction *m_whatIfAction = nullptr;
    QAction *m_migrateAction = nullptr;
    QAction *m_migrationsAction = nullptr;
    QAction *m_trendsAction = nullptr;
    QAction *m_watchAction = nullptr;
};

} // namespace oe
