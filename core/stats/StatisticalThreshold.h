#pragma once

#include "stats/Distribution.h"
#include "stats/OutlierMethod.h"

#include <QString>

#include <cstdint>

namespace oe {

// A threshold derived from a distribution: values strictly above `value` are outliers.
struct StatisticalThreshold
{
    std::uint64_t value = 0;
    QString rule; // how it was derived, in words, e.g. "Tukey fence on log scale: Q3 x (Q3/Q1)^1.5"

    struct Parameters
    {
        double percentile = 99.0; // for Percentile
        double fenceK = 1.5;      // for Iqr
        double madZ = 3.5;        // for Mad (Iglewicz and Hoaglin's recommendation)
    };

    // Method must not be Absolute. Log scale is log(1 + x), so zero-length arrays are fine.
    static StatisticalThreshold derive(const Distribution &d, OutlierMethod method,
                                       const Parameters &parameters);
    static StatisticalThreshold percentile(const Distribution &d, double p);
    static StatisticalThreshold tukeyLogFence(const Distribution &d, double k);
    static StatisticalThreshold robustZ(const Distribution &d, double z);
};

} // namespace oe
