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

// The source tree's context menu: Refresh and Disconnect for a connection (from any row under
// it), Close for a dump (its group goes with the last one); nothing is closed while it is being
// analysed. The window hears what became of it through the signals.
class SourceTreeMenu : public QObject
{
    Q_OBJECT
public:
    SourceTreeMenu(SourceTreeModel *sources, QTreeView *tree, Workspace *workspace);

    QList<QAction *> actionsFor(const QModelIndex &index);
    bool close(const QModelIndex &index);

signals:
    void refreshRequested(const QString &connection);
    void closed(const QString &name);
    void refused(const QString &why);

private:
    SourceTreeModel *m_sources;
    QTreeView *m_tree;
    Workspace *m_workspace;
};

} // namespace oe
