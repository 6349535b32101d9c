#pragma once

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
    std::vector<ShapeFlag> flags;

    std::size_t count(ShapeFlag::Kind kind) const
    {
        std::size_t n = 0;
        for (const ShapeFlag &f : flags)
            n += f.kind == kind;
        return n;
    }
};

} // namespace oe
