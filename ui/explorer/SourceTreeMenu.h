#pragma once

#include <QAction>
#include <QList>
#include <QObject>
#include <QString>

class QModelIndex;
class QTreeView;

namespace oe {

class SourceTreeModel;
class Workspace;

// The source tree's context menu: Refresh, Rename and Disconnect for a connection (from any row
// under it), Close for a dump (its group goes with the last one); nothing is closed while it is
// being analysed. The window hears what became of it through the signals.
class SourceTreeMenu : public QObject
{
    Q_OBJECT
public:
    SourceTreeMenu(SourceTreeModel *sources, QTreeView *tree, Workspace *workspace);

    QList<QAction *> actionsFor(const QModelIndex &index);
    bool close(const QModelIndex &index);
    // Gives a connection another name (Rename… asks for it); false, with refused(), when the
    // name is taken or empty, or the connection is being analysed.
    bool rename(const QModelIndex &connection, const QString &name);

signals:
    void refreshRequested(const QString &connection);
    void closed(const QString &name);
    void renamed(const QString &from, const QString &to);
    void refused(const QString &why);

private:
    bool isBusy(const QModelIndex &index); // refused() says so when it is

    SourceTreeModel *m_sources;
    QTreeView *m_tree;
    Workspace *m_workspace;
};

} // namespace oe
