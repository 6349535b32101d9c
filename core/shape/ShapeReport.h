#pragma once

#include "shape/SchemaVersions.h"
#include "shape/ShapeFlag.h"
#include "shape/ShapeOptions.h"
#include "stats/StatisticalThreshold.h"

#include <QString>

#include <vector>

namespace oe {

// The schema outliers of shape an analysis found (ShapeDetector), in a stable order: by kind,
// then path, then type.
struct ShapeReport
{
    bool measured = false; // the scan walked every field; else `why` says why not
    QString why;
    ShapeOptions options;
    StatisticalThreshold fieldCountThreshold; // documents with more fields are outliers
    StatisticalThreshold depthThreshold;      // documents nested deeper are outliers
    std::vector<ShapeFlag> flags;             // the whole collection's
    SchemaVersions versions; // the shape per schema version, when a version field is in effect

    // The flags every view lists (the CLI, the Shape tab, the report, shape_outliers.csv): the
    // whole collection's, except that with a version field in effect its rare fields and mixed
    // types are those within each version's documents; the explained ones come last (the
    // whole collection's that no version has, the members of a sparse field family:
    // ShapeFlag::explainedBy).
    std::vector<ShapeFlag> listed() const;
    // Listed flags of a kind, not counting the explained ones.
    std::size_t count(ShapeFlag::Kind kind) const;
    std::size_t explained() const;
};

} // namespace oe
