#pragma once

#include "mongo/Catalog.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>

class QTimer;
class QWidget;

namespace oe {

class CatalogLoader;
class SourceTreeModel;
class Workspace;

// Keeps the source tree in step with the servers: each listed connection's catalog read again
// off the UI thread when the window is activated (at most every 10 s) and every N seconds, its
// rows updated in place (the selection and expansion stay). Never a connection being analysed
// (its figures would move under the analysis), never one that is not listed yet; a failed
// reading leaves the rows as they were. Both choices are the user's (View → Refresh the tree),
// kept in QSettings.
class TreeRefresher : public QObject
{
    Q_OBJECT
public:
    TreeRefresher(QWidget *window, SourceTreeModel *sources, Workspace *workspace);

    static QList<int> intervalChoices() { return {0, 10, 30, 60, 300}; } // seconds; 0 is off
    int interval() const { return m_interval; }
    void setInterval(int seconds);
    bool onActivation() const { return m_onActivation; }
    void setOnActivation(bool on);
    // Every connection that may be read now; how many that is.
    int refreshAll();

signals:
    void refreshed(const QString &connection);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool mayRefresh(const QString &connection) const;
    void apply(const QString &connection, const Catalog &catalog);

    SourceTreeModel *m_sources;
    Workspace *m_workspace;
    CatalogLoader *m_loader;
    QTimer *m_timer;
    QElapsedTimer m_sinceActivation; // the last refresh an activation started
    int m_interval = 60;
    bool m_onActivation = true;
};

} // namespace oe
