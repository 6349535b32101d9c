#pragma once

#include "analysis/AnalysisOptions.h"
#include "analysis/CollectionProfile.h"
#include "source/DocumentSource.h"

#include <atomic>
#include <functional>
#include <optional>

namespace oe {

// Scans a DocumentSource and builds its CollectionProfile: the calling thread reads batches,
// worker threads walk them into their own ProfileBuilder, and the builders are merged at the
// end. Memory is bounded by the batch queue and the sketches, not by the document count.
// Blocking: call it from a worker thread (or the CLI), never from a GUI thread.
class Analyzer
{
public:
    struct Progress
    {
        std::uint64_t documents = 0;
        std::uint64_t bytes = 0;
        std::optional<std::uint64_t> totalBytes;
        std::optional<std::uint64_t> totalDocuments;
        double seconds = 0.0;
        // Sizes of the documents handed to the workers so far, so charts can fill in while
        // the scan runs (the final profile's histogram supersedes it).
        LogHistogram sizesSoFar;
    };
    using ProgressCallback = std::function<void(const Progress &)>;

    static CollectionProfile run(DocumentSource &source, const AnalysisOptions &options,
                                 const std::atomic<bool> *cancel = nullptr,
                                 const ProgressCallback &progress = {});
};

} // namespace oe
