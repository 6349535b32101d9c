#pragma once

#include "analysis/Analyzer.h"
#include "explore/AnalysisRequest.h"
#include "explore/AnalysisResult.h"

#include <atomic>

namespace oe {

// The analysis use case, the one pipeline the desktop app and the CLI both drive: open the
// request's source (a dump, or a collection with its filter, sample and time limit), scan it
// with the thresholds the detection needs kept exactly, find the outliers, and recommend a keep
// per array field; a complete analysis is kept in the analysis history the request names.
// Blocking: run it on a worker thread (or in the CLI); progress is reported on
// that thread; `cancel` stops the scan and the result covers what was read.
class AnalysisSession
{
public:
    using Progress = Analyzer::Progress;
    using ProgressCallback = Analyzer::ProgressCallback;

    static AnalysisResult run(const AnalysisRequest &request,
                              const std::atomic<bool> *cancel = nullptr,
                              const ProgressCallback &progress = {});
    // Call once the result is delivered (its reports written, or shown): drops the state a
    // complete range scan kept, so --resume would start again. Until then a crash loses nothing
    // read: --resume gives the same result without reading the collection again.
    static void release(const AnalysisResult &result);
    // A fresh source reading what `request` reads (the same sample, seed, filter and limits),
    // for work that follows an analysis over the same documents (the split preview's plan).
    static std::unique_ptr<DocumentSource> openSource(const AnalysisRequest &request);
    // The same analysis with other outlier rules, from what the scan retained (no new read):
    // the thresholds a user chose on the charts. A threshold below what the scan kept exactly
    // says so in the report's warnings.
    static AnalysisResult redetect(const AnalysisResult &result, const DetectionOptions &detection);

private:
    // A complete analysis into the request's history (HistoryStore), when it names one.
    static void keepInHistory(AnalysisResult *result);
};

} // namespace oe
