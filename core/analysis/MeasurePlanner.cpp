#include "analysis/MeasurePlanner.h"

#include "analysis/PathSegment.h"

#include "bson/BsonTypes.h"

#include <algorithm>

namespace oe {

namespace {

// The walk's name for arrays that are elements of an array.
constexpr std::string_view kNestedArrays = PathSegment::kNestedArray;

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
            if (name == kNestedArrays)
                continue; // arrays as elements: a document holding one is read whole
            if (!MeasurePlan::plainName(name) || name.find('.') != std::string::npos)
                return std::nullopt;
            if (f.arrays > 0)
                summary.children.push_back({name, true});
        } else if (f.path.compare(array.path.size() + 1, kNestedArrays.size(), kNestedArrays) ==
                   0) {
            continue; // inside the arrays that are elements: read whole with them
        } else if (f.arrays > 0 || f.depth != int(std::count(f.path.begin(), f.path.end(), '.'))) {
            return std::nullopt; // arrays two levels down, or names the path cannot spell
        }
    }
    // Elements as the sample had them, with room for their spread: a document far above this
    // holds something the sample did not (it comes whole, and is walked here).
    const std::uint64_t mean =
        array.elementCount ? array.elementBytes / array.elementCount : array.elementBytes;
    summary.elementBytesLimit = 4 * mean + 256;
    summary.elementTypes = array.elementTypeMask;
    return summary;
}

} // namespace

MeasurePlan MeasurePlanner::plan(const CollectionProfile &discovery)
{
    MeasurePlan plan;
    std::vector<const FieldProfile *> inside;
    for (const FieldProfile &f : discovery.fields) {
        if (f.arrays == 0)
            continue;
        if (f.insideArray)
            inside.push_back(&f);
        else if (auto summary = summaryOf(discovery, f))
            plan.summaries.push_back(std::move(*summary));
        else
            plan.unmeasurable.push_back(f.path);
    }
    // An array inside another's elements is measured as a child of that array's summary.
    for (const FieldProfile *f : inside) {
        const bool child = std::any_of(
            plan.summaries.begin(), plan.summaries.end(), [&](const MeasurePlan::Summary &s) {
                const std::string path = s.path();
                if (f->path == path + "." + std::string(kNestedArrays) ||
                    f->path.rfind(path + "." + std::string(kNestedArrays) + ".", 0) == 0)
                    return true; // read whole with the documents whose elements are arrays
                return startsBelow(f->path, path) &&
                       std::any_of(s.children.begin(), s.children.end(),
                                   [&](const MeasurePlan::Child &c) {
                                       return f->path.size() == path.size() + 1 + c.name.size() &&
                                              f->path.compare(path.size() + 1, std::string::npos,
                                                              c.name) == 0;
                                   });
            });
        if (!child)
            plan.unmeasurable.push_back(f->path);
    }
    // The bytes a document holds besides the plan's arrays stay under the discovery's largest
    // document (whose arrays were cut short): twice that is room for their spread.
    plan.restBytesLimit = 2 * discovery.sizes.max() + 256;
    return plan;
}

} // namespace oe
