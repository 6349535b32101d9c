#pragma once

#include "analysis/CollectionProfile.h"
#include "analysis/DetectionOptions.h"
#include "shape/ShapeOptions.h"
#include "shape/ShapeReport.h"

namespace oe {

// Finds the schema outliers of shape in a finished profile: rare fields, mixed types (values
// and array elements), objects whose keys are data, big scalars, and documents with far more
// fields or far deeper nesting than the rest (by the detection's method, as sizes are; the
// absolute method, which has no numbers for these, uses the Tukey fence). Only a profile
// that walked every field has shape figures (not a server-side measurement).
class ShapeDetector
{
public:
    static ShapeReport detect(const CollectionProfile &profile, const ShapeOptions &options,
                              const DetectionOptions &detection);
    // The rare fields and mixed types (of values and of array elements) of a profile's fields,
    // in that order: what differs between schema versions (VersionDetector).
    static std::vector<ShapeFlag> fieldFlags(const CollectionProfile &profile,
                                             const ShapeOptions &options);
    // The thresholds of the per-document kinds: more fields than this, deeper than this.
    static StatisticalThreshold fieldCountThreshold(const Distribution &fieldCounts,
                                                    const DetectionOptions &detection);
    static StatisticalThreshold depthThreshold(const Distribution &depths,
                                               const DetectionOptions &detection);
};

} // namespace oe
