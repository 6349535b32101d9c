#include "analysis/DetectionOptions.h"

namespace oe {

std::optional<std::uint64_t> DetectionOptions::sizeThresholdBeforeScan() const
{
    if (sizeThreshold)
        return sizeThreshold;
    if (method == OutlierMethod::Absolute)
        return preset.documentBytes;
    return std::nullopt;
}

std::optional<std::uint64_t> DetectionOptions::arrayThresholdBeforeScan() const
{
    if (arrayThreshold)
        return arrayThreshold;
    if (method == OutlierMethod::Absolute)
        return preset.arrayLength;
    return std::nullopt;
}

} // namespace oe
