#include "stats/StatisticalThreshold.h"

#include <algorithm>
#include <cmath>

namespace oe {

namespace {
std::uint64_t floorToValue(double x, const Distribution &d)
{
    if (!(x >= 0.0))
        return 0;
    // expm1(log1p(n)) is often a hair below n: a threshold within rounding error below an
    // integer is that integer (Tukey's fence with Q1 == Q3 is Q3), not the integer below it.
    const double nearest = std::round(x);
    if (nearest > x && nearest - x <= 1e-9 * nearest)
        x = nearest;
    if (x >= double(d.max()))
        return d.max();
    return std::uint64_t(std::floor(x));
}
} // namespace

StatisticalThreshold StatisticalThreshold::derive(const Distribution &d, OutlierMethod method,
                                                  const Parameters &parameters)
{
    switch (method) {
    case OutlierMethod::Percentile:
        return percentile(d, parameters.percentile);
    case OutlierMethod::Mad:
        return robustZ(d, parameters.madZ);
    case OutlierMethod::Iqr:
    case OutlierMethod::Absolute:
        break;
    }
    return tukeyLogFence(d, parameters.fenceK);
}

StatisticalThreshold StatisticalThreshold::percentile(const Distribution &d, double p)
{
    StatisticalThreshold t;
    t.value = d.quantile(std::clamp(p, 0.0, 100.0) / 100.0);
    t.rule = QStringLiteral("above the p%1 (%2)").arg(p).arg(t.value);
    return t;
}

StatisticalThreshold StatisticalThreshold::tukeyLogFence(const Distribution &d, double k)
{
    StatisticalThreshold t;
    const std::uint64_t q1 = d.quantile(0.25);
    const std::uint64_t q3 = d.quantile(0.75);
    const double l1 = std::log1p(double(q1));
    const double l3 = std::log1p(double(q3));
    t.value = floorToValue(std::expm1(l3 + k * (l3 - l1)), d);
    t.rule = QStringLiteral("above Tukey's fence on log scale, Q3 x (Q3/Q1)^%1 = %2 (Q1 %3, Q3 %4)")
                 .arg(k)
                 .arg(t.value)
                 .arg(q1)
                 .arg(q3);
    return t;
}

StatisticalThreshold StatisticalThreshold::robustZ(const Distribution &d, double z)
{
    StatisticalThreshold t;
    const std::uint64_t median = d.quantile(0.5);
    const double m = std::log1p(double(median));
    // Median absolute deviation of log(1+x), from the sketch's buckets.
    struct Dev
    {
        double deviation;
        std::uint64_t count;
    };
    std::vector<Dev> devs;
    double weightedAbs = 0.0;
    for (const auto &b : d.sketch().buckets(d.min(), d.max())) {
        const double dev = std::fabs(std::log1p(double(b.representative)) - m);
        devs.push_back({dev, b.count});
        weightedAbs += dev * double(b.count);
    }
    std::sort(devs.begin(), devs.end(),
              [](const Dev &a, const Dev &b) { return a.deviation < b.deviation; });
    const std::uint64_t rank = (d.count() + 1) / 2;
    std::uint64_t seen = 0;
    double mad = 0.0;
    for (const auto &dv : devs) {
        seen += dv.count;
        if (seen >= rank) {
            mad = dv.deviation;
            break;
        }
    }
    double scale = mad / 0.6745;
    QString scaleText = QStringLiteral("MAD %1").arg(mad, 0, 'g', 3);
    if (scale <= 0.0 && d.count() > 0) {
        // Over half the values are equal: fall back to the mean absolute deviation.
        scale = 1.253314 * weightedAbs / double(d.count());
        scaleText = QStringLiteral("MAD 0, mean absolute deviation used");
    }
    t.value = scale > 0.0 ? floorToValue(std::expm1(m + z * scale), d) : d.max();
    t.rule = QStringLiteral("robust z-score on log scale above %1 = %2 (median %3, %4)")
                 .arg(z)
                 .arg(t.value)
                 .arg(median)
                 .arg(scaleText);
    return t;
}

} // namespace oe
