#pragma once

#include "analysis/AnalysisOptions.h"
#include "analysis/DetectionOptions.h"
#include "analysis/SourceRef.h"
#include "analysis/SplitRecommendation.h"
#include "measure/MeasureMode.h"
#include "shape/ShapeOptions.h"

#include <QMetaType>
#include <QStringList>

namespace oe {

// One analysis as the user asked for it, from the desktop app or the CLI alike: what to read,
// how much, what counts as an outlier, and what the split recommendations aim at. A value
// type: it crosses to a worker thread by copy. AnalysisSession turns it into an AnalysisResult.
struct AnalysisRequest
{
    SourceRef source;
    DocumentSelection selection{DocumentSelection::Mode::Sample, 10000, 42};
    int threads = 0;             // analysis workers; 0 = one per core
    QString filter;              // extended JSON, live collections only
    qint64 maxTimeMs = 0;        // server-side limit per operation; 0 = none
    int batchSize = 0;           // documents per cursor batch, live; 0 = the driver's
    double maxDocsPerSecond = 0; // read at most this many documents per second; 0 = no limit
    // Full scans of a live collection: read by this many `_id` ranges at once (RangedScan),
    // resumable; 0 = one cursor in natural order. `resume` continues an interrupted one.
    int parallelRanges = 0;
    bool resume = false;
    qint64 checkpointMs = 3000; // how often a range scan saves its state
    // Where sizes and array lengths are measured (live collections): on the server where it has
    // $bsonSize, so a scan moves numbers rather than documents (MeasureSetup).
    MeasureMode measure = MeasureMode::Auto;
    DetectionOptions detection;
    ShapeOptions shape; // what counts as a schema outlier of shape
    std::uint64_t targetPrimaryBytes = SplitRecommendation::kDefaultTargetBytes;
    // A sample's report suggests the sample size that pins p99 to ± this many percentile points.
    double p99PrecisionPoints = 0.1;
    // The analysis history a complete analysis is kept in (HistoryStore); empty: not kept.
    QString historyPath;
    QString origin = QStringLiteral("cli"); // who ran it, for the history: "gui" or "cli"

    // The one rule for range scans: `_id` ranges read a live collection whole, so they apply
    // to a full scan of a collection only (elsewhere parallelRanges is not used).
    static bool rangesApply(DocumentSelection::Mode mode, SourceRef::Kind source)
    {
        return mode == DocumentSelection::Mode::Full && source == SourceRef::Kind::Collection;
    }
    bool usesRanges() const
    {
        return parallelRanges > 0 && rangesApply(selection.mode, source.kind);
    }
    // What makes the request contradict itself, one line each (the CLI's option names, as
    // SplitConfig::problems() words them); empty when it can run.
    QStringList problems() const;
};

} // namespace oe

Q_DECLARE_METATYPE(oe::AnalysisRequest)
