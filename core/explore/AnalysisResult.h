#pragma once

#include "analysis/CollectionProfile.h"
#include "analysis/OutlierReport.h"
#include "analysis/SplitRecommendation.h"
#include "explore/AnalysisRequest.h"
#include "shape/ShapeReport.h"
#include "shard/ShardBreakdown.h"

#include <QMetaType>

#include <vector>

namespace oe {

// Everything a finished (or cancelled, or failed) analysis produced, with the request that
// produced it: an immutable value, handed from the worker thread to the views by copy and
// written to reports as it is.
struct AnalysisResult
{
    AnalysisRequest request;
    CollectionProfile profile;
    OutlierReport outliers;
    std::vector<SplitRecommendation> recommendations;
    ShapeReport shape; // rare fields, mixed types, keys as data, big scalars, odd documents
    // A sharded collection's layout and where its outliers live; nullopt otherwise.
    std::optional<ShardBreakdown> sharding;

    const SplitRecommendation *recommendationFor(const std::string &path) const
    {
        for (const auto &r : recommendations)
            if (r.path == path)
                return &r;
        return nullptr;
    }
    // The array path a split would start from: the splittable one with the longest arrays,
    // else the longest array of all; empty when the documents hold no array.
    std::string preferredSplitPath() const;
    // The keep a path starts at: its recommendation when it can be split, else its longest
    // array (nothing would move); 0 for an unknown path.
    std::uint64_t suggestedKeep(const std::string &path) const;
    // The source could not be read at all (cannot open, cannot connect, no such collection):
    // there is nothing to report. A corrupt document is not this: what came before it counts.
    bool sourceUnreadable() const
    {
        return profile.error.isError() && profile.error.docIndex < 0 && profile.documents == 0 &&
               profile.error.kind != SourceError::Kind::InvalidData;
    }
};

} // namespace oe

Q_DECLARE_METATYPE(oe::AnalysisResult)
