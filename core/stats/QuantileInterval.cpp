#include "stats/QuantileInterval.h"

#include <algorithm>
#include <cmath>

namespace oe {

namespace {

// log P(B = k) for B ~ Binomial(n, q), 0 < q < 1.
double logPmf(std::uint64_t k, std::uint64_t n, double q)
{
    const double dn = double(n), dk = double(k);
    return std::lgamma(dn + 1) - std::lgamma(dk + 1) - std::lgamma(dn - dk + 1) + dk * std::log(q) +
           (dn - dk) * std::log1p(-q);
}

} // namespace

QuantileInterval::Ranks QuantileInterval::ranks(double q, std::uint64_t n, double confidence)
{
    Ranks result;
    if (n == 0 || q <= 0.0 || q >= 1.0)
        return result;
    const double tail = (1.0 - confidence) / 2.0;
    // P(X(l) <= x_q <= X(u)) = P(l <= B <= u - 1): l is the largest rank with
    // P(B <= l - 1) <= tail, u the smallest with P(B <= u - 1) >= 1 - tail. The CDF is summed
    // from well below the mean (the mass further down is < 1e-30), so the work is O(sqrt(n)).
    const double mean = q * double(n);
    const double sd = std::sqrt(mean * (1.0 - q));
    const double from = std::max(0.0, std::floor(mean - 12.0 * sd - 2.0));
    double cdf = 0.0, cdfBelowLower = 0.0;
    for (auto k = std::uint64_t(from); k < n; ++k) {
        cdf += std::exp(logPmf(k, n, q));
        if (cdf <= tail) {
            result.lower = k + 1; // P(B <= (k + 1) - 1) <= tail
            cdfBelowLower = cdf;
        }
        if (cdf >= 1.0 - tail) {
            result.upper = k + 1; // P(B <= (k + 1) - 1) >= 1 - tail
            result.coverage = cdf - (result.lower ? cdfBelowLower : 0.0);
            return result;
        }
    }
    // P(B <= n - 1) < 1 - tail: no order statistic bounds the quantile from above.
    result.coverage = 1.0 - (result.lower ? cdfBelowLower : 0.0);
    return result;
}

double QuantileInterval::twoSidedZ(double confidence)
{
    // Bisection on erfc: P(|Z| > z) = erfc(z / sqrt 2) = 1 - confidence.
    double lo = 0.0, hi = 40.0;
    const double target = 1.0 - confidence;
    for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2.0;
        (std::erfc(mid / std::sqrt(2.0)) > target ? lo : hi) = mid;
    }
    return (lo + hi) / 2.0;
}

std::uint64_t QuantileInterval::sampleSizeFor(double q, double halfWidth, double confidence)
{
    if (q <= 0.0 || q >= 1.0 || halfWidth <= 0.0)
        return 0;
    const double z = twoSidedZ(confidence);
    return std::uint64_t(std::ceil(z * z * q * (1.0 - q) / (halfWidth * halfWidth)));
}

double QuantileInterval::shareAboveSampleMax(std::uint64_t n, double confidence)
{
    if (n == 0)
        return 1.0;
    return -std::expm1(std::log(1.0 - confidence) / double(n));
}

} // namespace oe
