#include "explorer/DialogLauncher.h"

#include "dialogs/MigrationsDialog.h"
#include "dialogs/RewriteDialog.h"
#include "dialogs/TrendsDialog.h"
#include "dialogs/TypeGuardDialog.h"
#include "dialogs/UserGuide.h"
#include "dialogs/WatchDialog.h"
#include "dialogs/WhatIfDialog.h"
#include "models/SourceTreeModel.h"
#include "pages/CollectionView.h"
#include "session/MigrationFollower.h"
#include "viewer/DocumentOpener.h"
#include "wizard/MigrationWizard.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"

#include <QMainWindow>
#include <QMenuBar>
#include <QTreeView>

namespace oe {

namespace {
template <typename Dialog> Dialog *shown(Dialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}
} // namespace

DialogLauncher::DialogLauncher(QMainWindow *window, QTreeView *tree, SourceTreeModel *sources,
                               CollectionView *view, MigrationFollower *follower,
                               DocumentOpener *documents)
    : QObject(window), m_window(window), m_tree(tree), m_sources(sources), m_view(view),
      m_follower(follower), m_documents(documents)
{
}

template <typename Dialog> Dialog *DialogLauncher::onConnection()
{
    QModelIndex connection = m_tree->currentIndex();
    while (connection.parent().isValid())
        connection = connection.parent();
    return onConnection<Dialog>(connection);
}

template <typename Dialog> Dialog *DialogLauncher::onConnection(const QModelIndex &connection)
{
    if (!connection.isValid() || m_sources->kindOf(connection) != SourceTreeModel::Kind::Connection)
        return nullptr;
    return shown(
        new Dialog(connection.data().toString(), m_sources->settingsOf(connection), m_window));
}

MigrationsDialog *DialogLauncher::migrations()
{
    auto *dialog = onConnection<MigrationsDialog>();
    if (dialog)
        m_follower->follow(dialog->runner());
    return dialog;
}

MigrationsDialog *DialogLauncher::migrationsOf(const QString &connection, const QString &database,
                                               const QString &collection)
{
    auto *dialog = onConnection<MigrationsDialog>(m_sources->findConnection(connection));
    if (!dialog)
        return nullptr;
    dialog->showRun(database, collection);
    m_follower->follow(dialog->runner());
    return dialog;
}

WhatIfDialog *DialogLauncher::whatIf()
{
    auto *dialog = onConnection<WhatIfDialog>();
    if (dialog)
        dialog->takeLayoutOf(*m_view->state());
    return dialog;
}

TrendsDialog *DialogLauncher::trends()
{
    const SourceRef source = m_sources->sourceAt(m_tree->currentIndex());
    if (!source.isValid())
        return nullptr;
    const SourceState *state = m_view->state();
    return shown(new TrendsDialog(source, state ? state->sizeThreshold() : 0, m_window));
}

WatchDialog *DialogLauncher::watch()
{
    const SourceRef source = m_sources->sourceAt(m_tree->currentIndex());
    if (source.kind != SourceRef::Kind::Collection)
        return nullptr;
    const SourceState *state = m_view->state();
    const bool analysed = state && state->hasResult();
    auto *dialog = shown(new WatchDialog(source, analysed ? state->sizeThreshold() : 0,
                                         analysed ? state->path() : QString(),
                                         analysed ? state->keep() : 0, m_window));
    connect(dialog, &WatchDialog::documentRequested, m_documents,
            [this](const SourceRef &where, const QString &id) { m_documents->open(where, 0, id); });
    return dialog;
}

TypeGuardDialog *DialogLauncher::typeGuard(const SourceRef &source, const GuardRule &rule,
                                           QWidget *parent)
{
    if (source.kind != SourceRef::Kind::Collection)
        return nullptr;
    auto *dialog = shown(new TypeGuardDialog(source, rule, parent ? parent : m_window));
    connect(dialog, &TypeGuardDialog::documentRequested, m_documents,
            [this](const SourceRef &where, const QString &id) { m_documents->open(where, 0, id); });
    return dialog;
}

MigrationWizard *DialogLauncher::migrationWizard(Workspace *workspace)
{
    auto *wizard = new MigrationWizard(workspace, workspace->shown(), m_window);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        wizard, &MigrationWizard::rewriteRequested, this,
        [this, wizard](const RewriteConfig &config) { rewrite(wizard->source(), config, wizard); });
    connect(wizard, &MigrationWizard::typeGuardRequested, this,
            [this, wizard](const GuardRule &rule) { typeGuard(wizard->source(), rule, wizard); });
    m_follower->setWizard(wizard);
    wizard->open();
    return wizard;
}

RewriteDialog *DialogLauncher::rewrite(const SourceRef &source, const RewriteConfig &config,
                                       QWidget *parent)
{
    if (source.kind != SourceRef::Kind::Collection)
        return nullptr;
    return shown(new RewriteDialog(source, config, parent ? parent : m_window));
}

UserGuide *DialogLauncher::userGuide()
{
    return shown(new UserGuide(UserGuide::shortcutsOf(m_window->menuBar()), m_window));
}

} // namespace oe
