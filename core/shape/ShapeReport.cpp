#include "shape/ShapeReport.h"

#include <algorithm>

namespace oe {

std::vector<ShapeFlag> ShapeReport::listed() const
{
    if (!versions.inEffect())
        return flags;
    std::vector<ShapeFlag> out;
    for (const ShapeFlag &f : versions.flags)
        if (f.explainedBy.isEmpty())
            out.push_back(f);
    // By kind, then path; a path's versions in their order.
    std::stable_sort(out.begin(), out.end(), [](const ShapeFlag &a, const ShapeFlag &b) {
        return a.kind != b.kind ? a.kind < b.kind : a.path < b.path;
    });
    // The per-document kinds, and the version field's own flags (VersionDetector judges them
    // over the whole collection only).
    const auto ofTheVersionField = [&](const ShapeFlag &f) {
        return f.path == versions.field || f.path.rfind(versions.field + '.', 0) == 0;
    };
    for (const ShapeFlag &f : flags)
        if ((!f.isFieldKind() || ofTheVersionField(f)) && f.explainedBy.isEmpty())
            out.push_back(f);
    for (const ShapeFlag &f : flags)
        if (!f.explainedBy.isEmpty())
            out.push_back(f);
    for (const ShapeFlag &f : versions.flags)
        if (!f.explainedBy.isEmpty())
            out.push_back(f);
    return out;
}

std::size_t ShapeReport::count(ShapeFlag::Kind kind) const
{
    std::size_t n = 0;
    for (const ShapeFlag &f : listed())
        n += f.kind == kind && f.explainedBy.isEmpty();
    return n;
}

std::size_t ShapeReport::explained() const
{
    const std::vector<ShapeFlag> all = listed();
    return std::size_t(std::count_if(all.begin(), all.end(),
                                     [](const ShapeFlag &f) { return !f.explainedBy.isEmpty(); }));
}

} // namespace oe
