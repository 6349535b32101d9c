#include "session/TreeRefresher.h"

#include "models/SourceTreeModel.h"
#include "session/CatalogLoader.h"
#include "workspace/Workspace.h"

#include <QEvent>
#include <QSettings>
#include <QTimer>
#include <QWidget>

namespace oe {

namespace {
const QString kInterval = QStringLiteral("view/treeRefreshSeconds");
const QString kOnActivation = QStringLiteral("view/treeRefreshOnActivation");
constexpr qint64 kActivationGapMs = 10000; // switching windows back and forth reads once
} // namespace

TreeRefresher::TreeRefresher(QWidget *window, SourceTreeModel *sources, Workspace *workspace)
    : QObject(window), m_sources(sources), m_workspace(workspace),
      m_loader(new CatalogLoader(this)), m_timer(new QTimer(this))
{
    const QSettings settings;
    m_interval = qMax(0, settings.value(kInterval, m_interval).toInt());
    m_onActivation = settings.value(kOnActivation, m_onActivation).toBool();
    connect(m_timer, &QTimer::timeout, this, &TreeRefresher::refreshAll);
    connect(m_loader, &CatalogLoader::loaded, this, &TreeRefresher::apply);
    if (m_interval > 0)
        m_timer->start(m_interval * 1000);
    window->installEventFilter(this);
}

void TreeRefresher::setInterval(int seconds)
{
    m_interval = qMax(0, seconds);
    QSettings().setValue(kInterval, m_interval);
    if (m_interval > 0)
        m_timer->start(m_interval * 1000);
    else
        m_timer->stop();
}

void TreeRefresher::setOnActivation(bool on)
{
    m_onActivation = on;
    QSettings().setValue(kOnActivation, on);
}

bool TreeRefresher::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::WindowActivate && m_onActivation &&
        (!m_sinceActivation.isValid() || m_sinceActivation.elapsed() >= kActivationGapMs) &&
        refreshAll() > 0)
        m_sinceActivation.start();
    return QObject::eventFilter(watched, event);
}

bool TreeRefresher::mayRefresh(const QString &connection) const
{
    const QModelIndex index = m_sources->findConnection(connection);
    if (!index.isValid() ||
        m_sources->kindOf(m_sources->index(0, 0, index)) != SourceTreeModel::Kind::Database)
        return false; // connecting, failed, or waiting for a password: its own load says
    return !(m_workspace->isRunning() && m_workspace->analysing().connectionName == connection);
}

int TreeRefresher::refreshAll()
{
    int started = 0;
    for (const QString &name : m_sources->connectionNames())
        if (mayRefresh(name)) {
            m_loader->load(name, m_sources->settingsOf(m_sources->findConnection(name)));
            ++started;
        }
    return started;
}

void TreeRefresher::apply(const QString &connection, const Catalog &catalog)
{
    // An analysis that started meanwhile, a failed reading: the rows stay as they were.
    if (catalog.error.isError() || !mayRefresh(connection))
        return;
    m_sources->setCatalog(m_sources->findConnection(connection), catalog);
    emit refreshed(connection);
}

} // namespace oe
