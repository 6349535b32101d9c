#include "analysis/MeasurePlanner.h"

#include <algorithm>

namespace oe {

namespace {

std::vector<std::string> segmentsOf(const FieldProfile &field)
{
    std::vector<std::string> out;
    std::size_t from = 0;
    for (;;) {
        const std::size_t dot = field.path.find('.', from);
        out.push_back(field.path.substr(from, dot - from));
        if (dot == std::string::npos)
            break;
        from = dot + 1;
    }
    return out;
}

bool startsBelow(const std::string &path, const std::string &prefix)
{
    return path.size() > prefix.size() + 1 && path.compare(0, prefix.size(), prefix) == 0 &&
           path[prefix.size()] == '.';
}

// The summary of `array`, or nullopt when something below it needs the documents themselves.
std::optional<MeasurePlan::Summary> summaryOf(const CollectionProfile &profile,
                                              const FieldProfile &array)
{
    MeasurePlan::Summary summary;
    summary.segments = segmentsOf(array);
    // A key with a dot in it reads as two segments: the depth the walk counted tells.
    if (int(summary.segments.size()) != array.depth + 1 ||
        !std::all_of(summary.segments.begin(), summary.segments.end(), MeasurePlan::plainName))
        return std::nullopt;
    for (const FieldProfile &f : profile.fields) {
        if (!startsBelow(f.path, array.path))
            continue;
        if (f.depth == array.depth + 1) {
            const std::string name = f.path.substr(array.path.size() + 1);
            if (!MeasurePlan::plainName(name) || name.find('.') != std::string::npos)
                return std::nullopt; // also "$[]": arrays directly inside the array
            if (f.arrays > 0)
                summary.children.push_back({name, true});
        } else if (f.arrays > 0 || f.depth != int(std::count(f.path.begin(), f.path.end(), '.'))) {
            return std::nullopt; // arrays two levels down, or names the path cannot spell
        }
    }
    // Elements as the sample had them, with room for their spread: a document far above this
    // holds something the sample did not (it comes whole, and is walked here).
    const std::uint64_t mean =
        array.elementCount ? array.elementBytes / array.elementCount : array.elementBytes;
    summary.elementBytesLimit = 4 * mean + 256;
    return summary;
}

} // namespace

MeasurePlan MeasurePlanner::plan(const CollectionProfile &discovery)
{
    MeasurePlan plan;
    for (const FieldProfile &f : discovery.fields) {
        if (f.arrays == 0 || f.insideArray)
            continue;
        if (auto summary = summaryOf(discovery, f))
            plan.summaries.push_back(std::move(*summary));
    }
    return plan;
}

} // namespace oe
