#pragma once

#include "AnalysisRequest.h"
#include "CollectionProfile.h"
#include "OutlierReport.h"
#include "SplitRecommendation.h"

#include <QMetaType>

#include <vector>

namespace oe {

// Everything a finished (or cancelled, or failed) run produced: a value type, handed from the
// worker thread to the views by copy.
struct AnalysisResult
{
    AnalysisRequest request;
    CollectionProfile profile;
    OutlierReport outliers;
    std::vector<SplitRecommendation> recommendations;

    const SplitRecommendation *recommendationFor(const std::string &path) const
    {
        for (const auto &r : recommendations)
            if (r.path == path)
                return &r;
        return nullptr;
    }
};

} // namespace oe

Q_DECLARE_METATYPE(oe::AnalysisResult)
