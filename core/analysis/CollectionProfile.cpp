#include "analysis/CollectionProfile.h"

#include <algorithm>

namespace oe {

const FieldProfile *CollectionProfile::field(const std::string &path) const
{
    auto it =
        std::lower_bound(fields.begin(), fields.end(), path,
                         [](const FieldProfile &f, const std::string &p) { return f.path < p; });
    return it != fields.end() && it->path == path ? &*it : nullptr;
}

void CollectionProfile::absorbField(FieldProfile &into, FieldProfile &&from)
{
    into.typeMask |= from.typeMask;
    into.elementTypeMask |= from.elementTypeMask;
    into.presentDocuments += from.presentDocuments;
    into.values += from.values;
    into.bytes += from.bytes;
    into.lengths.merge(from.lengths);
    into.elementCount += from.elementCount;
    into.elementBytes += from.elementBytes;
    into.arrays += from.arrays;
    // A path is inside an array if it was in any part (a parent that is sometimes an array).
    into.insideArray = into.insideArray || from.insideArray;
    into.lengthsOnly = into.lengthsOnly || from.lengthsOnly;
    // A path without arrays so far has a default tail, not the scan's capacity: take the other.
    if (into.arrays == from.arrays)
        into.longestPerDocument = std::move(from.longestPerDocument);
    else if (from.arrays > 0)
        into.longestPerDocument.merge(std::move(from.longestPerDocument));
    into.shape.absorb(std::move(from.shape));
}

void CollectionProfile::absorb(CollectionProfile &&other)
{
    for (const QString &note : other.notes)
        if (!notes.contains(note))
            notes << note;
    bytesRead += other.bytesRead;
    if (other.documents == 0)
        return;
    // An empty profile's tails have default capacities, not the scan's: it takes the other's.
    if (documents == 0) {
        largestDocuments = std::move(other.largestDocuments);
        longestArrays = std::move(other.longestArrays);
    } else {
        largestDocuments.merge(std::move(other.largestDocuments));
        longestArrays.merge(std::move(other.longestArrays));
    }
    shape.absorb(std::move(other.shape));
    versions.absorb(std::move(other.versions));
    documents += other.documents;
    sizes.merge(other.sizes);
    std::vector<FieldProfile> merged;
    merged.reserve(std::max(fields.size(), other.fields.size()));
    auto a = fields.begin();
    auto b = other.fields.begin();
    while (a != fields.end() || b != other.fields.end()) {
        if (b == other.fields.end() || (a != fields.end() && a->path < b->path)) {
            merged.push_back(std::move(*a++));
        } else if (a == fields.end() || b->path < a->path) {
            merged.push_back(std::move(*b++));
        } else {
            absorbField(*a, std::move(*b++));
            merged.push_back(std::move(*a++));
        }
    }
    fields = std::move(merged);
    other.fields.clear();
    other.documents = 0;
}

} // namespace oe
