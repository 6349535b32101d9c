#pragma once

#include "explore/AnalysisRequest.h"
#include "explore/AnalysisResult.h"
#include "jobs/AnalysisProgress.h"

#include <QObject>
#include <QThread>

namespace oe {

class AnalysisWorker;

// The GUI's handle on analysis: owns a worker on its own QThread, starts runs, cancels them,
// and re-emits progress and results on the GUI thread. Never blocks the caller.
class AnalysisRunner : public QObject
{
    Q_OBJECT
public:
    explicit AnalysisRunner(QObject *parent = nullptr);
    ~AnalysisRunner() override;

    bool isRunning() const { return m_running; }
    // Starts a run; false (and nothing happens) while another is running.
    bool start(const AnalysisRequest &request);
    void cancel();

signals:
    void started(const oe::AnalysisRequest &request);
    void progressed(const oe::AnalysisProgress &progress);
    void finished(const oe::AnalysisResult &result);
    void runningChanged(bool running);
    void requestRun(const oe::AnalysisRequest &request); // to the worker (queued)

private:
    void onFinished(const AnalysisResult &result);

    QThread m_thread;
    AnalysisWorker *m_worker = nullptr;
    bool m_running = false;
};

} // namespace oe
