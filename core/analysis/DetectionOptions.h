#pragma once

#include "analysis/ThresholdPreset.h"
#include "stats/OutlierMethod.h"
#include "stats/StatisticalThreshold.h"

#include <cstdint>
#include <optional>

namespace oe {

// Which documents count as outliers. Each dimension independently: an explicit threshold wins;
// otherwise the method decides (Absolute uses the preset's numbers).
struct DetectionOptions
{
    OutlierMethod method = OutlierMethod::Iqr;
    std::optional<std::uint64_t> sizeThreshold;  // documents larger than this many bytes
    std::optional<std::uint64_t> arrayThreshold; // arrays longer than this, at any path
    ThresholdPreset preset = ThresholdPreset::compass();
    StatisticalThreshold::Parameters parameters;

    // Effective absolute thresholds known before a scan (so the scan keeps every such
    // document and the lists are exact); nullopt where the threshold depends on the data.
    std::optional<std::uint64_t> sizeThresholdBeforeScan() const;
    std::optional<std::uint64_t> arrayThresholdBeforeScan() const;
};

} // namespace oe
