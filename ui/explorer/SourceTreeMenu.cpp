#include "explorer/SourceTreeMenu.h"

#include "models/SourceTreeModel.h"
#include "workspace/Workspace.h"

#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QPersistentModelIndex>
#include <QTreeView>

namespace oe {

SourceTreeMenu::SourceTreeMenu(SourceTreeModel *sources, QTreeView *tree, Workspace *workspace)
    : QObject(tree), m_sources(sources), m_tree(tree), m_workspace(workspace)
{
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QTreeView::customContextMenuRequested, this, [this](const QPoint &at) {
        const QList<QAction *> actions = actionsFor(m_tree->indexAt(at));
        if (actions.isEmpty())
            return;
        auto *menu = new QMenu(m_tree);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        for (QAction *action : actions)
            menu->addAction(action);
        menu->popup(m_tree->viewport()->mapToGlobal(at));
    });
}

QList<QAction *> SourceTreeMenu::actionsFor(const QModelIndex &index)
{
    QList<QAction *> actions;
    QModelIndex row = index.siblingAtColumn(0);
    while (row.isValid() && row.parent().isValid() &&
           m_sources->kindOf(row) != SourceTreeModel::Kind::Dump)
        row = row.parent();
    if (!row.isValid())
        return actions;
    const auto kind = m_sources->kindOf(row);
    const QPersistentModelIndex target(row);
    if (kind == SourceTreeModel::Kind::Connection) {
        const QString name = row.data().toString();
        auto *refresh = new QAction(tr("&Refresh"), m_tree);
        connect(refresh, &QAction::triggered, this, [this, name] {
            const QModelIndex connection = m_sources->findConnection(name);
            if (!connection.isValid())
                return;
            m_sources->setConnectionMessage(connection, tr("Connecting…"), false);
            emit refreshRequested(name);
        });
        auto *renameAction = new QAction(tr("Re&name…"), m_tree);
        connect(renameAction, &QAction::triggered, this, [this, target] {
            bool ok = false;
            const QString name =
                QInputDialog::getText(m_tree, tr("Rename connection"), tr("&Name:"),
                                      QLineEdit::Normal, target.data().toString(), &ok);
            if (ok && target.isValid())
                rename(target, name.trimmed());
        });
        auto *disconnect = new QAction(tr("&Disconnect"), m_tree);
        connect(disconnect, &QAction::triggered, this, [this, target] { close(target); });
        actions << refresh << renameAction << disconnect;
    } else if (kind == SourceTreeModel::Kind::Dump) {
        auto *closeDump = new QAction(tr("&Close dump"), m_tree);
        connect(closeDump, &QAction::triggered, this, [this, target] { close(target); });
        actions << closeDump;
    }
    for (QAction *action : actions) // each menu's own: gone with the next one
        connect(m_tree, &QTreeView::customContextMenuRequested, action, &QObject::deleteLater,
                Qt::SingleShotConnection);
    return actions;
}

bool SourceTreeMenu::isBusy(const QModelIndex &index)
{
    const auto kind = m_sources->kindOf(index);
    const QString name = index.data().toString();
    const SourceRef analysing = m_workspace->analysing();
    const bool busy =
        m_workspace->isRunning() && (kind == SourceTreeModel::Kind::Connection
                                         ? analysing.connectionName == name
                                         : analysing.key() == m_sources->sourceAt(index).key());
    if (busy)
        emit refused(tr("%1 is being analysed: cancel the analysis first.").arg(name));
    return busy;
}

bool SourceTreeMenu::rename(const QModelIndex &connection, const QString &name)
{
    if (!connection.isValid() || m_sources->kindOf(connection) != SourceTreeModel::Kind::Connection)
        return false;
    const QString from = connection.data().toString();
    if (name == from || isBusy(connection))
        return false;
    if (!m_sources->renameConnection(connection, name)) {
        emit refused(name.isEmpty()
                         ? tr("A connection needs a name.")
                         : tr("Another connection is named %1: choose another name.").arg(name));
        return false;
    }
    emit renamed(from, name);
    return true;
}

bool SourceTreeMenu::close(const QModelIndex &index)
{
    if (!index.isValid() || isBusy(index))
        return false;
    const auto kind = m_sources->kindOf(index);
    const QString name = index.data().toString();
    if (kind == SourceTreeModel::Kind::Connection)
        m_sources->removeConnection(index);
    else if (kind == SourceTreeModel::Kind::Dump)
        m_sources->removeDump(index);
    else
        return false;
    emit closed(name);
    return true;
}

} // namespace oe
