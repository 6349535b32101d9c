#include "workspace/Workspace.h"

#include "explore/AnalysisSession.h"
#include "jobs/LatestJob.h"
#include "workspace/SourceState.h"

#include <QThread>
#include <QTimer>

#include <algorithm>

namespace oe {

namespace {

AnalysisProgress progressOf(const AnalysisSession::Progress &p)
{
    return AnalysisProgress{p};
}

} // namespace

Workspace::Workspace(QObject *parent) : QObject(parent), m_job(new LatestJob(this))
{
    qRegisterMetaType<AnalysisRequest>();
    qRegisterMetaType<AnalysisResult>();
    qRegisterMetaType<AnalysisProgress>();
    qRegisterMetaType<SourceRef>();
}

Workspace::~Workspace() = default;

SourceState *Workspace::stateOf(const SourceRef &source)
{
    SourceState *&state = m_states[source.key()];
    if (!state)
        state = new SourceState(this);
    return state;
}

void Workspace::setShown(const SourceRef &source)
{
    // The same source under a renamed connection is shown again (its title changes).
    if (source.key() == m_shown.key() && source.connectionName == m_shown.connectionName)
        return;
    m_shown = source;
    emit shownChanged(source);
}

bool Workspace::isRunning() const
{
    return m_job->isRunning();
}

bool Workspace::analyse(const AnalysisRequest &requested, Previous previous)
{
    if (isRunning() || !requested.source.isValid())
        return false;
    AnalysisRequest request = requested;
    // The schema version field the user chose for this source (the Shape tab) holds for its
    // next analyses: a field named there is looked for in every document.
    if (const SourceState *s = m_states.value(request.source.key()); s && s->hasResult()) {
        request.shape.versions = s->analysis().request.shape.versions;
        request.shape.versionField = s->analysis().request.shape.versionField;
    }
    // One core stays free for the window: on a 2-core laptop, two busy workers plus the
    // reader thread would leave the GUI thread waiting for the scheduler.
    if (request.threads == 0)
        request.threads = std::max(1, QThread::idealThreadCount() - 1);
    m_analysing = request.source;
    if (previous == Previous::Cleared)
        stateOf(request.source)->clear();
    m_job->startWithProgress<AnalysisProgress>(
        [request](const std::atomic<bool> &cancel,
                  const std::function<void(const AnalysisProgress &)> &report) {
            AnalysisResult result = AnalysisSession::run(
                request, &cancel,
                [&report](const AnalysisSession::Progress &p) { report(progressOf(p)); });
            AnalysisSession::release(result); // the state holds the result from here
            return result;
        },
        [this, previous](const AnalysisResult &result) { land(result, previous); },
        [this, source = request.source](const AnalysisProgress &p) { emit progressed(source, p); });
    emit runningChanged(true);
    emit started(request.source);
    return true;
}

void Workspace::enqueue(const AnalysisRequest &request, Previous previous)
{
    // Idle: it runs now, or (no source) not at all; queued, it would hold up every later one.
    if (!isRunning() && m_queue.isEmpty())
        analyse(request, previous);
    else
        m_queue.append({request, previous});
}

void Workspace::cancel()
{
    m_job->requestStop();
}

void Workspace::land(const AnalysisResult &result, Previous previous)
{
    m_analysing = {};
    emit landing(result);
    if (previous == Previous::Cleared ||
        result.profile.status == CollectionProfile::Status::Complete)
        stateOf(result.request.source)->setResult(result);
    emit runningChanged(false);
    emit finished(result);
    if (!m_queue.isEmpty())
        QTimer::singleShot(0, this, &Workspace::startNextQueued);
}

void Workspace::startNextQueued()
{
    while (!isRunning() && !m_queue.isEmpty()) {
        const Queued next = m_queue.takeFirst();
        analyse(next.request, next.previous);
    }
}

} // namespace oe
