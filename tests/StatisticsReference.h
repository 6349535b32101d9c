// Shared helpers of the statistics unit tests (tst_quantilesketch, tst_loghistogram,
// tst_statisticalthreshold): deterministic data generators and exact reference computations
// (exact sort, integer arithmetic), never taken from the code under test.

#pragma once

#include "stats/Distribution.h"

#include <QString>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace statsref {

using Values = std::vector<std::uint64_t>;
// 128-bit arithmetic for exact reference computations (a GCC/Clang extension).
__extension__ typedef unsigned __int128 U128;

inline constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
inline constexpr std::uint64_t kMiB = 1024 * 1024;

// ---- Portable, reproducible random numbers (the std:: distributions differ between
// ---- standard libraries; the engine does not).
class Rng
{
public:
    explicit Rng(std::uint64_t seed) : m_engine(seed) {}
    std::uint64_t bits() { return m_engine(); }
    // Uniform in [lo, hi], inclusive (the modulo bias is irrelevant here).
    std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi)
    {
        const std::uint64_t span = hi - lo;
        return span == kU64Max ? bits() : lo + bits() % (span + 1);
    }
    // Uniform in (0, 1).
    double unit() { return (double(m_engine() >> 11) + 0.5) * 0x1.0p-53; }
    double normal()
    {
        const double u1 = unit();
        const double u2 = unit();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

private:
    std::mt19937_64 m_engine;
};

// Nearest-rank quantile q = num/den of sorted data, in exact integer arithmetic:
// the value at 1-based rank ceil(q * n), rank 0 meaning rank 1.
std::uint64_t exactQuantile(const Values &sorted, std::uint64_t num, std::uint64_t den);
Values sortedCopy(Values v);
oe::Distribution distributionOf(const Values &values);

// Relative error bound the tests grant the sketch above kExactLimit (the header promises 0.5%).
inline constexpr double kRelTolerance = 0.01;

// Exact below QuantileSketch::kExactLimit, within kRelTolerance above it.
bool withinSketchError(std::uint64_t actual, std::uint64_t expected);

// The data sets named in the tests. All are deterministic.
Values makeData(const QString &kind);
// Adds a QString column "kind" and one row per data set of makeData().
void addDataSetRows();

} // namespace statsref
