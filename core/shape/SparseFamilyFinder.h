#pragma once

#include "analysis/CollectionProfile.h"
#include "shape/ShapeOptions.h"
#include "shape/ShapeReport.h"

namespace oe {

// The attribute pattern's case in a finished profile: many top-level fields (at least
// ShapeOptions::sparseMinFields), each in under ShapeOptions::sparseShare of the documents,
// holding scalars of few types (at most kMaxTypes, each field mostly one), while a document holds
// a small subset of them (on average at most kMaxSubset of the family). Named as one
// SparseFields flag with its members; the members' own rare-field flags (of the whole collection
// and within each version) are explained by it, not counted.
class SparseFamilyFinder
{
public:
    static constexpr int kMaxTypes = 4;
    static constexpr double kMaxSubset = 0.2;
    // The median member is in at least this many documents: 300 fields of one document are that
    // document's outlier (many_fields), not a family spread over the collection.
    static constexpr std::uint64_t kMinMedianDocuments = 3;

    static void find(const CollectionProfile &profile, const ShapeOptions &options,
                     ShapeReport &report);
};

} // namespace oe
