#pragma once

#include <QString>

#include <optional>

namespace oe {

// How a threshold is chosen when the user does not give one.
enum class OutlierMethod
{
    Absolute,   // fixed numbers (a preset users know: Compass, Atlas, half of 16 MiB)
    Percentile, // above the p-th percentile
    Iqr,        // above Tukey's fence on the log scale: Q3 * (Q3/Q1)^k
    Mad,        // robust z-score on the log scale: (x - median) / (MAD / 0.6745) > z
};

QString methodName(OutlierMethod method);
std::optional<OutlierMethod> methodFromName(const QString &name);

} // namespace oe
