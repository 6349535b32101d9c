#pragma once

#include "analysis/SourceRef.h"
#include "guard/GuardRule.h"
#include "remedy/RewriteConfig.h"

#include <QModelIndex>
#include <QObject>

class QMainWindow;
class QTreeView;

namespace oe {

class CollectionView;
class DocumentOpener;
class MigrationFollower;
class MigrationWizard;
class Workspace;
class MigrationsDialog;
class SourceTreeModel;
class TrendsDialog;
class RewriteDialog;
class TypeGuardDialog;
class UserGuide;
class WatchDialog;
class WhatIfDialog;

// The window's non-modal dialogs, each opened on what is selected: Migrations and What if on the
// current connection, Trends on the current source, Watch on the current collection (with the
// chosen thresholds), and the user guide. Each returns the dialog, or null (and nothing opens)
// when the selection does not fit it.
class DialogLauncher : public QObject
{
    Q_OBJECT
public:
    DialogLauncher(QMainWindow *window, QTreeView *tree, SourceTreeModel *sources,
                   CollectionView *view, MigrationFollower *follower, DocumentOpener *documents);

    MigrationsDialog *migrations();
    // The migration wizard on the workspace's shown source, followed (MigrationFollower), its
    // remedy page's Rewrite and type guard dialogs opened over it.
    MigrationWizard *migrationWizard(Workspace *workspace);
    // Migrations on the connection named `connection`, the run on database.collection selected
    // (the interrupted-run offer's Open: whatever the tree has selected); null without it.
    MigrationsDialog *migrationsOf(const QString &connection, const QString &database,
                                   const QString &collection);
    WhatIfDialog *whatIf();
    TrendsDialog *trends();
    WatchDialog *watch();
    // The type guard of a live collection's field (the Shape tab's Guard type…).
    // `parent`: the window it belongs to (the migration wizard's remedy), else the main one.
    TypeGuardDialog *typeGuard(const SourceRef &source, const GuardRule &rule,
                               QWidget *parent = nullptr);
    // The in-place rewrite of a live collection's field (the Shape tab's Rewrite…).
    RewriteDialog *rewrite(const SourceRef &source, const RewriteConfig &config,
                           QWidget *parent = nullptr);
    UserGuide *userGuide();

private:
    template <typename Dialog> Dialog *onConnection();
    template <typename Dialog> Dialog *onConnection(const QModelIndex &connection);

    QMainWindow *m_window;
    QTreeView *m_tree;
    SourceTreeModel *m_sources;
    CollectionView *m_view;
    MigrationFollower *m_follower;
    DocumentOpener *m_documents;
};

} // namespace oe
