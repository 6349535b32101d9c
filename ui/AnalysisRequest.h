#pragma once

#include "AnalysisOptions.h"
#include "DetectionOptions.h"
#include "SourceRef.h"

#include <QMetaType>

namespace oe {

// One analysis run as the user asked for it: what to read, how much, and what counts as an
// outlier. A value type: it crosses to the worker thread by copy.
struct AnalysisRequest
{
    SourceRef source;
    AnalysisOptions::Mode mode = AnalysisOptions::Mode::Sample;
    std::uint64_t count = 10000; // for Sample and Limit
    QString filter;              // extended JSON, live collections only
    qint64 maxTimeMs = 0;        // server-side limit per operation; 0 = none
    DetectionOptions detection;
};

} // namespace oe

Q_DECLARE_METATYPE(oe::AnalysisRequest)
