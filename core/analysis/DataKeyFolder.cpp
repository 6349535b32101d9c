#include "analysis/DataKeyFolder.h"

#include "analysis/PathSegment.h"

#include "bson/KeyPattern.h"

#include <algorithm>
#include <map>
#include <set>

namespace oe {

namespace {

// The first segment of `path` after `prefix` (which ends with a dot).
std::string_view childOf(std::string_view path, std::size_t prefixLength)
{
    const std::string_view rest = path.substr(prefixLength);
    return rest.substr(0, rest.find('.'));
}

// The fields below `object` (a contiguous run of the sorted fields): [begin, end).
std::pair<std::size_t, std::size_t> below(const std::vector<FieldProfile> &fields,
                                          const std::string &prefix)
{
    auto first =
        std::lower_bound(fields.begin(), fields.end(), prefix,
                         [](const FieldProfile &f, const std::string &p) { return f.path < p; });
    auto last = first;
    while (last != fields.end() && last->path.compare(0, prefix.size(), prefix) == 0)
        ++last;
    return {std::size_t(first - fields.begin()), std::size_t(last - fields.begin())};
}

// Decides for the object at `index` and folds its keys when they are data; true if folded.
bool foldOne(std::vector<FieldProfile> &fields, std::size_t index)
{
    FieldProfile &object = fields[index];
    const std::string prefix = object.path + '.';
    const auto [begin, end] = below(fields, prefix);
    std::set<std::string_view> keys;
    std::uint64_t dataLike = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const std::string_view key = childOf(fields[i].path, prefix.size());
        if (key != PathSegment::kOtherKeys && keys.insert(key).second)
            dataLike += KeyPattern::looksLikeData(key);
    }
    FieldShape &shape = object.shape;
    shape.distinctKeys = keys.size();
    shape.dataLikeKeys = std::uint32_t(dataLike);
    const std::uint64_t distinct = keys.size();
    const bool many = distinct >= DataKeyFolder::kMinDistinctKeys;
    const bool dataShaped = 2 * dataLike >= distinct;
    const bool sparse =
        double(distinct) >= DataKeyFolder::kSparseFactor * std::max(1.0, shape.keyCounts.mean());
    if (!many || !(dataShaped || sparse))
        return false;
    shape.keysAsData = true;
    // Each key's figures counted the documents that held it: the folded paths are in the
    // documents that hold the object, at most.
    const std::uint64_t holding = object.presentDocuments;
    std::map<std::string, FieldProfile> folded;
    for (std::size_t i = begin; i < end; ++i) {
        FieldProfile &f = fields[i];
        const std::size_t keyEnd = prefix.size() + childOf(f.path, prefix.size()).size();
        std::string path = prefix + std::string(PathSegment::kDataKey) + f.path.substr(keyEnd);
        auto [it, fresh] = folded.try_emplace(path);
        if (fresh) {
            it->second = std::move(f);
            it->second.path = std::move(path);
        } else {
            CollectionProfile::absorbField(it->second, std::move(f));
        }
    }
    std::vector<FieldProfile> rest;
    rest.reserve(fields.size() - (end - begin) + folded.size());
    for (std::size_t i = 0; i < begin; ++i)
        rest.push_back(std::move(fields[i]));
    for (auto &[path, f] : folded) {
        f.presentDocuments = std::min(f.presentDocuments, holding);
        rest.push_back(std::move(f));
    }
    for (std::size_t i = end; i < fields.size(); ++i)
        rest.push_back(std::move(fields[i]));
    fields = std::move(rest); // still sorted: "<key>" paths replace the run below the object
    return true;
}

} // namespace

void DataKeyFolder::fold(CollectionProfile &profile)
{
    // Inner objects first: a map of maps folds to a.<key>.<key>. An object folded before (a
    // profile folded twice) keeps its figures.
    std::vector<std::pair<int, std::string>> objects;
    for (const FieldProfile &f : profile.fields)
        if (f.shape.keyCounts.count() > 0 && !f.lengthsOnly && !f.shape.keysAsData)
            objects.emplace_back(f.depth, f.path);
    std::stable_sort(objects.begin(), objects.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &[depth, path] : objects) {
        const auto it = std::lower_bound(
            profile.fields.begin(), profile.fields.end(), path,
            [](const FieldProfile &f, const std::string &p) { return f.path < p; });
        if (it != profile.fields.end() && it->path == path)
            foldOne(profile.fields, std::size_t(it - profile.fields.begin()));
    }
    profile.versions.foldLike(profile);
}

} // namespace oe
