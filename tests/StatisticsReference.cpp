#include "StatisticsReference.h"

#include "stats/QuantileSketch.h"

#include <QTest>

#include <algorithm>

using namespace oe;

namespace statsref {

std::uint64_t exactQuantile(const Values &sorted, std::uint64_t num, std::uint64_t den)
{
    const auto n = static_cast<U128>(sorted.size());
    auto rank = static_cast<std::uint64_t>((num * n + den - 1) / den);
    rank = std::clamp<std::uint64_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

Values sortedCopy(Values v)
{
    std::sort(v.begin(), v.end());
    return v;
}

Distribution distributionOf(const Values &values)
{
    Distribution d;
    for (std::uint64_t v : values)
        d.add(v);
    return d;
}

bool withinSketchError(std::uint64_t actual, std::uint64_t expected)
{
    if (expected < QuantileSketch::kExactLimit)
        return actual == expected;
    return std::fabs(double(actual) - double(expected)) <= kRelTolerance * double(expected);
}

Values makeData(const QString &kind)
{
    Values v;
    if (kind == QLatin1String("uniformSmall")) {
        Rng rng(1);
        for (int i = 0; i < 10000; ++i)
            v.push_back(rng.uniform(0, 1000));
    } else if (kind == QLatin1String("uniformLarge")) {
        Rng rng(2);
        for (int i = 0; i < 20000; ++i)
            v.push_back(rng.uniform(1'000'000, 1'000'000'000'000ull));
    } else if (kind == QLatin1String("lognormalDocSizes")) {
        // Document sizes: median ~8 KiB, wide spread, within BSON's [100 B, 16 MiB].
        Rng rng(3);
        for (int i = 0; i < 50000; ++i) {
            const double x = std::exp(std::log(8192.0) + 1.6 * rng.normal());
            v.push_back(std::clamp<std::uint64_t>(std::uint64_t(x), 100, 16 * kMiB));
        }
    } else if (kind == QLatin1String("paretoHeavyTail")) {
        Rng rng(4);
        for (int i = 0; i < 50000; ++i)
            v.push_back(std::uint64_t(100.0 / std::pow(rng.unit(), 1.0 / 1.1)));
    } else if (kind == QLatin1String("constantSmall")) {
        v.assign(1000, 7);
    } else if (kind == QLatin1String("constantLarge")) {
        v.assign(1000, 4'200'042);
    } else if (kind == QLatin1String("zerosPlusFewLarge")) {
        v.assign(5000, 0);
        v.push_back(9'000'000);
        v.push_back(5'000'000);
        v.push_back(7'000'000);
    } else if (kind == QLatin1String("singleSmall")) {
        v = {5};
    } else if (kind == QLatin1String("singleLarge")) {
        v = {123'456'789};
    } else if (kind == QLatin1String("two")) {
        v = {5'000'000, 10};
    } else if (kind == QLatin1String("hundred")) {
        for (std::uint64_t i = 100; i >= 1; --i)
            v.push_back(i);
    } else if (kind == QLatin1String("million")) {
        // 1e6 values: a document-size-like bulk with a 1% heavy tail.
        Rng rng(5);
        for (int i = 0; i < 1'000'000; ++i) {
            const double x = i % 100 == 0 ? 1000.0 / std::pow(rng.unit(), 1.0 / 1.3)
                                          : std::exp(std::log(3000.0) + 1.0 * rng.normal());
            v.push_back(std::min<std::uint64_t>(std::uint64_t(x), 16 * kMiB));
        }
    } else {
        qFatal("unknown data set");
    }
    return v;
}

void addDataSetRows()
{
    QTest::addColumn<QString>("kind");
    for (const char *kind : {"uniformSmall", "uniformLarge", "lognormalDocSizes", "paretoHeavyTail",
                             "constantSmall", "constantLarge", "zerosPlusFewLarge", "singleSmall",
                             "singleLarge", "two", "hundred", "million"})
        QTest::newRow(kind) << QString::fromLatin1(kind);
}

} // namespace statsref
