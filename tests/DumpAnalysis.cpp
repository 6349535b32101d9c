#include "DumpAnalysis.h"

#include "BsonFixtures.h"
#include "explore/AnalysisSession.h"

namespace fixtures {

oe::AnalysisResult analyseDocuments(const QString &path, const QList<QByteArray> &docs,
                                    const oe::ShapeOptions &shape, int threads)
{
    if (!writeFile(path, concat(docs)))
        qFatal("cannot write %s", qPrintable(path));
    oe::AnalysisRequest request;
    request.source.kind = oe::SourceRef::Kind::Dump;
    request.source.dumpPath = path;
    request.selection = {oe::DocumentSelection::Mode::Full, 0, 42};
    request.threads = threads;
    request.shape = shape;
    return oe::AnalysisSession::run(request, nullptr, {});
}

} // namespace fixtures
