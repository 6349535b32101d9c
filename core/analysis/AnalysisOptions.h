#pragma once

#include "analysis/ProfileBuilder.h"
#include "measure/MeasurePlan.h"
#include "source/DocumentSelection.h"

#include <cstdint>
#include <memory>

namespace oe {

struct AnalysisOptions
{
    using Mode = DocumentSelection::Mode;

    DocumentSelection selection; // every document unless told
    int threads = 0;             // analysis workers; 0 = one per core
    std::size_t batchBytes = 512u << 10;
    double maxDocsPerSecond = 0; // read at most this many documents per second; 0 = no limit
    ProfileBuilder::Limits limits;
    // Set when the source returns server-side measurements (MeasureProjection) made with this
    // plan instead of documents.
    std::shared_ptr<const MeasurePlan> measurePlan;
};

} // namespace oe
