#pragma once

#include "explore/AnalysisRequest.h"
#include "explore/AnalysisResult.h"
#include "jobs/AnalysisProgress.h"

#include <QObject>

#include <atomic>

namespace oe {

// Runs one analysis at a time on the thread it lives on (AnalysisRunner moves it to its own
// QThread). Progress and the result leave by queued signals as value types; cancel() may be
// called from any thread while run() works.
class AnalysisWorker : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    void cancel() { m_cancel.store(true); }
    // Clears a previous cancel; called before a run is queued, never during one.
    void resetCancel() { m_cancel.store(false); }

public slots:
    void run(const oe::AnalysisRequest &request);

signals:
    void progressed(const oe::AnalysisProgress &progress);
    void finished(const oe::AnalysisResult &result);

private:
    std::atomic<bool> m_cancel{false};
};

} // namespace oe
