#include "jobs/AnalysisWorker.h"

#include "explore/AnalysisSession.h"

#include <QThread>

#include <algorithm>

namespace oe {

void AnalysisWorker::run(const AnalysisRequest &requested)
{
    AnalysisRequest request = requested;
    // One core stays free for the window: on a 2-core laptop, two busy workers plus the
    // reader thread would leave the GUI thread waiting for the scheduler.
    if (request.threads == 0)
        request.threads = std::max(1, QThread::idealThreadCount() - 1);
    AnalysisResult result =
        AnalysisSession::run(request, &m_cancel, [this](const AnalysisSession::Progress &p) {
            AnalysisProgress progress;
            progress.documents = p.documents;
            progress.bytes = p.bytes;
            progress.totalDocuments = p.totalDocuments;
            progress.totalBytes = p.totalBytes;
            progress.seconds = p.seconds;
            progress.sizesSoFar = p.sizesSoFar;
            emit progressed(progress);
        });
    AnalysisSession::release(result); // the window holds the result from here
    emit finished(result);
}

} // namespace oe
