#include "analysis/VersionTally.h"

#include "analysis/CollectionProfile.h"
#include "analysis/PathSegment.h"

#include <algorithm>
#include <map>

namespace oe {

namespace {

bool before(const ShapeExample &a, const ShapeExample &b)
{
    return a.slot != b.slot ? a.slot < b.slot : a.docIndex < b.docIndex;
}

// The earliest documents of each slot, FieldShape::kExamplesPerSlot at most, whichever part
// saw them.
void mergeExamples(std::vector<ShapeExample> &into, std::vector<ShapeExample> &&from)
{
    if (from.empty())
        return;
    for (ShapeExample &e : from)
        into.push_back(std::move(e));
    std::stable_sort(into.begin(), into.end(), before);
    std::vector<ShapeExample> kept;
    int inSlot = 0;
    for (ShapeExample &e : into) {
        const bool sameSlot = !kept.empty() && kept.back().slot == e.slot;
        if (sameSlot && kept.back().docIndex == e.docIndex)
            continue;
        inSlot = sameSlot ? inSlot + 1 : 1;
        if (inSlot <= FieldShape::kExamplesPerSlot)
            kept.push_back(std::move(e));
    }
    into = std::move(kept);
}

void mergePath(VersionTally::Path &into, VersionTally::Path &&from)
{
    into.presentDocuments += from.presentDocuments;
    into.types.merge(from.types);
    into.elementTypes.merge(from.elementTypes);
    mergeExamples(into.examples, std::move(from.examples));
}

// Both sorted by path: the union, what lands on one path added up.
std::vector<VersionTally::Path> mergePaths(std::vector<VersionTally::Path> &&a,
                                           std::vector<VersionTally::Path> &&b)
{
    std::vector<VersionTally::Path> out;
    out.reserve(std::max(a.size(), b.size()));
    auto i = a.begin();
    auto j = b.begin();
    while (i != a.end() || j != b.end()) {
        if (j == b.end() || (i != a.end() && i->path < j->path)) {
            out.push_back(std::move(*i++));
        } else if (i == a.end() || j->path < i->path) {
            out.push_back(std::move(*j++));
        } else {
            mergePath(*i, std::move(*j++));
            out.push_back(std::move(*i++));
        }
    }
    return out;
}

void mergeGroups(VersionTally::Field &into, VersionTally::Field &&from)
{
    into.watched += from.watched;
    into.present += from.present;
    into.unfit += from.unfit;
    into.tooManyValues = into.tooManyValues || from.tooManyValues;
    into.restFieldCounts.merge(from.restFieldCounts);
    into.restDepths.merge(from.restDepths);
    for (VersionTally::Group &g : from.groups) {
        auto it = std::lower_bound(
            into.groups.begin(), into.groups.end(), g.raw,
            [](const VersionTally::Group &x, const std::string &raw) { return x.raw < raw; });
        if (it != into.groups.end() && it->raw == g.raw) {
            it->documents += g.documents;
            it->fieldCounts.merge(g.fieldCounts);
            it->depths.merge(g.depths);
            it->paths = mergePaths(std::move(it->paths), std::move(g.paths));
        } else {
            into.groups.insert(it, std::move(g));
        }
    }
    if (into.groups.size() > VersionTally::kMaxValues)
        into.tooManyValues = true;
    if (into.tooManyValues)
        into.groups.clear();
}

// `path` with each segment below an object whose keys are data replaced by "<key>".
std::string folded(const CollectionProfile &profile, const std::string &path)
{
    std::string out;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = path.find('.', start);
        std::string segment = path.substr(start, dot == std::string::npos ? dot : dot - start);
        if (!out.empty()) {
            const FieldProfile *object = profile.field(out);
            if (object && object->shape.keysAsData)
                segment = std::string(PathSegment::kDataKey);
            out += '.';
        }
        out += segment;
        if (dot == std::string::npos)
            return out;
        start = dot + 1;
    }
}

std::string parentOf(const std::string &path)
{
    const auto dot = path.rfind('.');
    return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

} // namespace

std::vector<std::string> VersionTally::knownNames()
{
    return {"schema_version", "schemaVersion", "_v", "version"};
}

const VersionTally::Group *VersionTally::Field::group(const std::string &raw) const
{
    for (const Group &g : groups)
        if (g.raw == raw)
            return &g;
    return nullptr;
}

const VersionTally::Field *VersionTally::field(const std::string &name) const
{
    for (const Field &f : fields)
        if (f.name == name)
            return &f;
    return nullptr;
}

void VersionTally::absorb(VersionTally &&other)
{
    for (Field &f : other.fields) {
        auto it =
            std::lower_bound(fields.begin(), fields.end(), f.name,
                             [](const Field &x, const std::string &name) { return x.name < name; });
        if (it != fields.end() && it->name == f.name)
            mergeGroups(*it, std::move(f));
        else
            fields.insert(it, std::move(f));
    }
    other.fields.clear();
}

void VersionTally::foldLike(const CollectionProfile &profile)
{
    for (Field &f : fields) {
        for (Group &g : f.groups) {
            std::map<std::string, Path> byPath;
            for (Path &p : g.paths) {
                std::string path = folded(profile, p.path);
                auto [it, fresh] = byPath.try_emplace(path);
                if (fresh) {
                    it->second = std::move(p);
                    it->second.path = std::move(path);
                } else {
                    mergePath(it->second, std::move(p));
                }
            }
            // What was counted once per key is in the documents holding the object, at most
            // (a parent sorts before its children, so it is capped first).
            for (auto &[path, p] : byPath)
                if (PathSegment::throughManyKeys(path))
                    if (const auto parent = byPath.find(parentOf(path)); parent != byPath.end())
                        p.presentDocuments =
                            std::min(p.presentDocuments, parent->second.presentDocuments);
            g.paths.clear();
            for (auto &[path, p] : byPath)
                g.paths.push_back(std::move(p));
        }
    }
}

} // namespace oe
