#include "AnalysisWorker.h"

#include "Analyzer.h"
#include "OutlierDetector.h"

#include <QThread>

#include <algorithm>

namespace oe {

void AnalysisWorker::run(const AnalysisRequest &request)
{
    AnalysisOptions options;
    options.mode = request.mode;
    options.count = request.count;
    // One core stays free for the window: on a 2-core laptop, two busy workers plus the
    // reader thread would leave the GUI thread waiting for the scheduler.
    options.threads = std::max(1, QThread::idealThreadCount() - 1);
    OutlierDetector::prepareScan(request.detection, options.limits.keepDocumentsLargerThan,
                                 options.limits.keepArraysLongerThan);
    LiveQuery query;
    query.filter = request.filter;
    query.mode = request.mode;
    query.count = request.count;
    query.maxTimeMs = request.maxTimeMs;

    AnalysisResult result;
    result.request = request;
    const auto source = request.source.openSource(query);
    result.profile =
        Analyzer::run(*source, options, &m_cancel, [this](const Analyzer::Progress &p) {
            AnalysisProgress progress;
            progress.documents = p.documents;
            progress.bytes = p.bytes;
            progress.totalDocuments = p.totalDocuments;
            progress.totalBytes = p.totalBytes;
            progress.seconds = p.seconds;
            progress.sizesSoFar = p.sizesSoFar;
            emit progressed(progress);
        });
    if (result.profile.documents > 0) {
        result.outliers = OutlierDetector::detect(result.profile, request.detection);
        result.recommendations = SplitRecommendation::recommend(result.profile);
    }
    emit finished(result);
}

} // namespace oe
