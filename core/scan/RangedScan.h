#pragma once

#include "analysis/AnalysisOptions.h"
#include "analysis/Analyzer.h"
#include "analysis/CollectionProfile.h"
#include "mongo/ConnectionSettings.h"
#include "mongo/LiveQuery.h"

#include <atomic>

namespace oe {

// A full scan of a live collection by several cursors at once, each reading one `_id` range in
// `_id` order (IdRangePlanner cuts them; `_id`s of other types are read once by one more
// cursor), each walking its own profile; the profiles merge exactly, and documents are
// numbered by their rank in `_id` order, so every number of ranges gives the same reports.
// Resumable: the state (ScanCheckpoint) is saved every few seconds and when the scan stops,
// complete or not; `resume` continues from it, and the result equals a scan that never stopped.
// A complete scan's state stays until release(): the reports come from it if they were lost.
// Blocking; call it from a worker thread or the CLI. Progress may come from any of its threads
// (one call at a time).
class RangedScan
{
public:
    struct Request
    {
        ConnectionSettings settings;
        LiveQuery query; // namespace, filter, time limit, batch size; read in full
        AnalysisOptions options;
        int ranges = 1;
        bool resume = false;
        qint64 checkpointMs = 3000; // the state file is rewritten at most this often
    };

    static CollectionProfile run(const Request &request, const std::atomic<bool> *cancel = nullptr,
                                 const Analyzer::ProgressCallback &progress = {});
    // Drops the state a complete scan kept (CollectionProfile::keptState) once its result is
    // delivered; a cancelled or failed scan's state stays for --resume.
    static void release(const CollectionProfile &profile);
    // What identifies a scan's saved state: cluster, namespace, filter, ranges, scan limits.
    static QString identity(const Request &request, const QString &hosts);

private:
    class Scan;
};

} // namespace oe
