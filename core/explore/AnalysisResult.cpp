#include "explore/AnalysisResult.h"

namespace oe {

std::string AnalysisResult::preferredSplitPath() const
{
    const FieldProfile *best = nullptr;
    bool bestSplittable = false;
    for (const FieldProfile &field : profile.fields) {
        if (field.lengths.count() == 0)
            continue;
        const SplitRecommendation *rec = recommendationFor(field.path);
        const bool splittable = rec && rec->splittable;
        if (!best || (splittable && !bestSplittable) ||
            (splittable == bestSplittable && field.lengths.max() > best->lengths.max())) {
            best = &field;
            bestSplittable = splittable;
        }
    }
    return best ? best->path : std::string();
}

std::uint64_t AnalysisResult::suggestedKeep(const std::string &path) const
{
    if (const SplitRecommendation *rec = recommendationFor(path); rec && rec->splittable)
        return rec->keep;
    const FieldProfile *field = profile.field(path);
    return field ? field->lengths.max() : 0;
}

} // namespace oe
