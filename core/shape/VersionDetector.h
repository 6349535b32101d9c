#pragma once

#include "analysis/CollectionProfile.h"
#include "analysis/DetectionOptions.h"
#include "shape/ShapeOptions.h"
#include "shape/ShapeReport.h"

namespace oe {

// The Schema Versioning pattern in a finished profile (its VersionTally): picks the version field
// (ShapeOptions::versions: a usual name present in more than half of the documents with at most
// VersionTally::kMaxValues values, a value no version has in at most 1 % of them; or the one the
// user named), and fills ShapeReport::versions: each version's share, the rare fields and mixed
// types within each version's documents (ShapeDetector::fieldFlags over what the walk counted
// for it), and marks the whole collection's rare fields and mixed types that no version has as
// explained, not defects; so are the documents with far more fields (or nesting) than the rest
// when, within each version, none has far more than its version's. The documents without a version
// value are a version of their own
// ("(none)": the oldest ones, in a lazy migration).
class VersionDetector
{
public:
    static void apply(const CollectionProfile &profile, const ShapeOptions &options,
                      const DetectionOptions &detection, ShapeReport &report);
};

} // namespace oe
