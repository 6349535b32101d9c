#pragma once

#include "analysis/SourceRef.h"
#include "explore/AnalysisRequest.h"
#include "explore/AnalysisResult.h"
#include "jobs/AnalysisProgress.h"

#include <QHash>
#include <QList>
#include <QObject>

namespace oe {

class LatestJob;
class SourceState;

// The open sources of the desktop app (Tiled's DocumentManager is the model): one SourceState
// per source, which source is shown, and the analyses, one at a time (AnalysisSession on the
// job pool), with those asked for while one runs queued behind it. The window, its pages and
// the wizard all ask it; a result lands in its source's state before finished() announces it.
class Workspace : public QObject
{
    Q_OBJECT
public:
    // What a new analysis does to the source's current result.
    enum class Previous
    {
        Cleared,           // cleared at the start (the pages show the progress)
        KeptUntilComplete, // replaced only by a complete result (the wizard's full scan)
    };

    explicit Workspace(QObject *parent = nullptr);
    ~Workspace() override;

    // The state of `source` (by SourceRef::key()), made on first use; owned here.
    SourceState *stateOf(const SourceRef &source);

    void setShown(const SourceRef &source);
    const SourceRef &shown() const { return m_shown; }
    bool isShown(const SourceRef &source) const { return source.key() == m_shown.key(); }

    // Starts an analysis now; false (nothing happens) while another runs or without a source.
    bool analyse(const AnalysisRequest &request, Previous previous = Previous::Cleared);
    // Runs it after the running one and those queued before (at once when none runs; a request
    // without a source is dropped, as analyse() refuses it).
    void enqueue(const AnalysisRequest &request, Previous previous = Previous::Cleared);
    void clearQueue() { m_queue.clear(); }
    // Asks the running analysis to stop; its partial result still arrives (and the queued
    // ones start after it).
    void cancel();
    bool isRunning() const;
    const SourceRef &analysing() const { return m_analysing; } // invalid when none runs
    bool isAnalysing(const SourceRef &source) const
    {
        return isRunning() && source.key() == m_analysing.key();
    }

signals:
    void shownChanged(const oe::SourceRef &source);
    void runningChanged(bool running);
    void started(const oe::SourceRef &source);
    void progressed(const oe::SourceRef &source, const oe::AnalysisProgress &progress);
    // Just before the result goes into its source's state (a view switches tabs first, so
    // the pages it leaves are not redrawn with the new result).
    void landing(const oe::AnalysisResult &result);
    void finished(const oe::AnalysisResult &result);

private:
    struct Queued
    {
        AnalysisRequest request;
        Previous previous;
    };
    void land(const AnalysisResult &result, Previous previous);
    void startNextQueued();

    QHash<QString, SourceState *> m_states;
    SourceRef m_shown;
    SourceRef m_analysing;
    QList<Queued> m_queue;
    LatestJob *m_job;
};

} // namespace oe
