// Unit tests for the statistics core: QuantileSketch, LogHistogram, Distribution and
// StatisticalThreshold. Every expectation is computed independently from the raw data (exact
// sort, brute-force counting, integer arithmetic), never copied from the code under test.

#include "Distribution.h"
#include "LogHistogram.h"
#include "OutlierMethod.h"
#include "QuantileSketch.h"
#include "StatisticalThreshold.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <numeric>
#include <random>
#include <vector>

using namespace oe;

Q_DECLARE_METATYPE(std::vector<std::uint64_t>)

namespace {

using Values = std::vector<std::uint64_t>;
// 128-bit arithmetic for exact reference computations (a GCC/Clang extension).
__extension__ typedef unsigned __int128 U128;

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t kMiB = 1024 * 1024;

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

// Relative error bound the tests grant the sketch above kExactLimit (the header promises 0.5%).
constexpr double kRelTolerance = 0.01;

bool withinSketchError(std::uint64_t actual, std::uint64_t expected)
{
    if (expected < QuantileSketch::kExactLimit)
        return actual == expected;
    return std::fabs(double(actual) - double(expected)) <= kRelTolerance * double(expected);
}

// The data sets named in the tests. All are deterministic.
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
    for (const char *kind :
         {"uniformSmall", "uniformLarge", "lognormalDocSizes", "paretoHeavyTail", "constantSmall",
          "constantLarge", "zerosPlusFewLarge", "singleSmall", "singleLarge", "two", "hundred",
          "million"})
        QTest::newRow(kind) << QString::fromLatin1(kind);
}

struct Fraction
{
    std::uint64_t num;
    std::uint64_t den;
    const char *label;
};

// 7/100 and 29/100 are there because q*n is not an integer in floating point for them
// (0.07 * 100 == 7.000000000000001), which a naive ceil(q * n) gets wrong.
const Fraction kQuantiles[] = {{0, 1, "q0"},       {7, 100, "p7"},     {1, 4, "p25"},
                               {29, 100, "p29"},   {1, 2, "p50"},      {3, 4, "p75"},
                               {9, 10, "p90"},     {19, 20, "p95"},    {99, 100, "p99"},
                               {999, 1000, "p99.9"}, {1, 1, "q1"}};

// Floor of a threshold computed in long double; a value within 1e-12 (relative) of an integer
// is taken to be that integer, since the fence is then mathematically an integer
// (e.g. Q1 == Q3) and rounding must not push it one below.
std::uint64_t floorOfReal(long double x, std::uint64_t maximum)
{
    if (!(x >= 0.0L))
        return 0;
    const long double r = std::round(x);
    if (std::fabs(x - r) <= 1e-12L * std::max<long double>(1.0L, r))
        x = r;
    if (x >= (long double)maximum)
        return maximum;
    return std::uint64_t(std::floor(x));
}

long double tukeyFence(long double q1, long double q3, long double k)
{
    const long double l1 = std::log1p(q1);
    const long double l3 = std::log1p(q3);
    return std::expm1(l3 + k * (l3 - l1));
}

std::size_t countAbove(const Values &values, std::uint64_t threshold)
{
    return std::size_t(std::count_if(values.begin(), values.end(),
                                     [threshold](std::uint64_t v) { return v > threshold; }));
}

// Median and MAD of log(1 + x) from exact data, nearest-rank at (n + 1) / 2 like the code's
// documented definition.
struct LogMad
{
    std::uint64_t median;
    double m;
    double mad;
    double meanAbsDev;
};

LogMad exactLogMad(const Values &sorted)
{
    LogMad r{};
    r.median = exactQuantile(sorted, 1, 2);
    r.m = std::log1p(double(r.median));
    std::vector<double> devs;
    double sum = 0.0;
    for (std::uint64_t v : sorted) {
        devs.push_back(std::fabs(std::log1p(double(v)) - r.m));
        sum += devs.back();
    }
    std::sort(devs.begin(), devs.end());
    r.mad = devs[(devs.size() + 1) / 2 - 1];
    r.meanAbsDev = sum / double(sorted.size());
    return r;
}

// Largest error the sketch may add to log(1 + value): representatives sit mid-bucket in
// buckets of ratio 1.01 (plus integer rounding), so about log(1.0055).
constexpr double kLogEps = 0.006;

} // namespace

class TestStatistics : public QObject
{
    Q_OBJECT

private slots:
    // QuantileSketch / Distribution
    void quantilesMatchExactSort_data() { addDataSetRows(); }
    void quantilesMatchExactSort();
    void exactMoments_data() { addDataSetRows(); }
    void exactMoments();
    void emptyDistribution();
    void mergeEqualsWhole_data();
    void mergeEqualsWhole();
    void mergeWithEmpty();
    void addWithTimesEqualsRepeatedAdd();
    void sketchRankWithLargeCounts();
    void sketchKeysBracketValues();
    void sketchExtremeValues();
    void sketchMemoryBound();

    // LogHistogram
    void histogramBinContainsValue();
    void histogramEdgesAreCeilOfQuarterPowers();
    void histogramBinsContiguousAndCounted_data() { addDataSetRows(); }
    void histogramBinsContiguousAndCounted();
    void histogramSkipsEmptyRangeBins();
    void histogramMergeAddsCounts();

    // StatisticalThreshold
    void percentileEqualsSketchQuantile_data();
    void percentileEqualsSketchQuantile();
    void tukeyLogFenceExact_data();
    void tukeyLogFenceExact();
    void tukeyLogFenceWindow_data();
    void tukeyLogFenceWindow();
    void robustZMatchesExactMad_data();
    void robustZMatchesExactMad();
    void robustZMadZeroFallback();
    void robustZConstantFlagsNothing();
    void methodsFlagOnlyExtremes_data();
    void methodsFlagOnlyExtremes();
};

// ----------------------------------------------------------------------------------------------
// QuantileSketch / Distribution
// ----------------------------------------------------------------------------------------------

void TestStatistics::quantilesMatchExactSort()
{
    QFETCH(QString, kind);
    const Values values = makeData(kind);
    const Values sorted = sortedCopy(values);
    const Distribution d = distributionOf(values);

    for (const Fraction &f : kQuantiles) {
        const double q = double(f.num) / double(f.den);
        const std::uint64_t expected = exactQuantile(sorted, f.num, f.den);
        const std::uint64_t actual = d.quantile(q);
        QVERIFY2(withinSketchError(actual, expected),
                 qPrintable(QStringLiteral("%1 (n=%2): sketch %3, exact %4")
                                .arg(QLatin1String(f.label))
                                .arg(values.size())
                                .arg(actual)
                                .arg(expected)));
        // Distribution::quantile is the sketch clamped to the exact [min, max].
        QCOMPARE(d.sketch().quantile(q, sorted.front(), sorted.back()), actual);
        QVERIFY(actual >= sorted.front() && actual <= sorted.back());
    }
    // Out-of-range q is clamped to [0, 1].
    QCOMPARE(d.quantile(2.0), d.quantile(1.0));
    QCOMPARE(d.quantile(-1.0), d.quantile(0.0));
}

void TestStatistics::exactMoments()
{
    QFETCH(QString, kind);
    const Values values = makeData(kind);
    const Distribution d = distributionOf(values);

    U128 sum = 0;
    for (std::uint64_t v : values)
        sum += v;
    QVERIFY(sum <= kU64Max); // the data sets are chosen so the sum fits
    QCOMPARE(d.count(), std::uint64_t(values.size()));
    QCOMPARE(d.min(), *std::min_element(values.begin(), values.end()));
    QCOMPARE(d.max(), *std::max_element(values.begin(), values.end()));
    QCOMPARE(d.sum(), std::uint64_t(sum));
    QCOMPARE(d.mean(), double(std::uint64_t(sum)) / double(values.size()));
    QCOMPARE(d.sketch().count(), std::uint64_t(values.size()));
    QCOMPARE(d.histogram().total(), std::uint64_t(values.size()));
    QVERIFY(!d.sketch().isEmpty());
}

void TestStatistics::emptyDistribution()
{
    const Distribution d;
    QCOMPARE(d.count(), std::uint64_t(0));
    QCOMPARE(d.sum(), std::uint64_t(0));
    QCOMPARE(d.mean(), 0.0);
    QCOMPARE(d.quantile(0.5), std::uint64_t(0));
    QVERIFY(d.sketch().isEmpty());
    QVERIFY(d.sketch().buckets(0, 0).empty());
    QVERIFY(d.histogram().bins().empty());
    QCOMPARE(d.histogram().total(), std::uint64_t(0));
}

void TestStatistics::mergeEqualsWhole_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("interleaved");
    for (const char *kind : {"uniformSmall", "uniformLarge", "lognormalDocSizes",
                             "paretoHeavyTail", "zerosPlusFewLarge", "two", "million"}) {
        QTest::addRow("%s halves", kind) << QString::fromLatin1(kind) << false;
        QTest::addRow("%s interleaved", kind) << QString::fromLatin1(kind) << true;
    }
}

void TestStatistics::mergeEqualsWhole()
{
    QFETCH(QString, kind);
    QFETCH(bool, interleaved);
    const Values values = makeData(kind);

    Distribution whole;
    Distribution a;
    Distribution b;
    for (std::size_t i = 0; i < values.size(); ++i) {
        whole.add(values[i]);
        const bool first = interleaved ? i % 2 == 0 : i < values.size() / 2;
        (first ? a : b).add(values[i]);
    }
    Distribution ab = a;
    ab.merge(b);
    Distribution ba = b;
    ba.merge(a);

    for (const Distribution *m : {&ab, &ba}) {
        QCOMPARE(m->count(), whole.count());
        QCOMPARE(m->min(), whole.min());
        QCOMPARE(m->max(), whole.max());
        QCOMPARE(m->sum(), whole.sum());
        QCOMPARE(m->mean(), whole.mean());
        for (int i = 0; i <= 1000; ++i)
            QCOMPARE(m->quantile(i / 1000.0), whole.quantile(i / 1000.0));

        const auto mb = m->sketch().buckets(m->min(), m->max());
        const auto wb = whole.sketch().buckets(whole.min(), whole.max());
        QCOMPARE(mb.size(), wb.size());
        for (std::size_t i = 0; i < wb.size(); ++i) {
            QCOMPARE(mb[i].representative, wb[i].representative);
            QCOMPARE(mb[i].count, wb[i].count);
        }

        const auto mh = m->histogram().bins();
        const auto wh = whole.histogram().bins();
        QCOMPARE(mh.size(), wh.size());
        for (std::size_t i = 0; i < wh.size(); ++i) {
            QCOMPARE(mh[i].lower, wh[i].lower);
            QCOMPARE(mh[i].upper, wh[i].upper);
            QCOMPARE(mh[i].count, wh[i].count);
        }
        QCOMPARE(m->histogram().total(), whole.histogram().total());
    }
}

void TestStatistics::mergeWithEmpty()
{
    const Values values = {3, 900, 70'000, 12};
    const Distribution full = distributionOf(values);

    Distribution emptyThenFull;
    emptyThenFull.merge(full);
    Distribution fullThenEmpty = full;
    fullThenEmpty.merge(Distribution());

    for (const Distribution *m : {&emptyThenFull, &fullThenEmpty}) {
        QCOMPARE(m->count(), std::uint64_t(4));
        QCOMPARE(m->min(), std::uint64_t(3));
        QCOMPARE(m->max(), std::uint64_t(70'000));
        QCOMPARE(m->sum(), std::uint64_t(3 + 900 + 70'000 + 12));
        QCOMPARE(m->quantile(0.5), std::uint64_t(12));
        QCOMPARE(m->histogram().total(), std::uint64_t(4));
    }

    // A distribution of zeros merged into an empty one keeps min = max = 0.
    Distribution zeros = distributionOf({0, 0});
    Distribution e;
    e.merge(zeros);
    QCOMPARE(e.min(), std::uint64_t(0));
    QCOMPARE(e.max(), std::uint64_t(0));
    QCOMPARE(e.quantile(1.0), std::uint64_t(0));
}

void TestStatistics::addWithTimesEqualsRepeatedAdd()
{
    QuantileSketch once;
    QuantileSketch repeated;
    LogHistogram hOnce;
    LogHistogram hRepeated;
    const std::pair<std::uint64_t, std::uint64_t> items[] = {
        {0, 3}, {17, 5}, {2047, 2}, {2048, 4}, {123'456, 7}, {16 * kMiB, 1}};
    for (const auto &[value, times] : items) {
        once.add(value, times);
        hOnce.add(value, times);
        for (std::uint64_t i = 0; i < times; ++i) {
            repeated.add(value);
            hRepeated.add(value);
        }
    }
    QCOMPARE(once.count(), repeated.count());
    QCOMPARE(once.count(), std::uint64_t(22));
    for (int i = 0; i <= 100; ++i)
        QCOMPARE(once.quantile(i / 100.0, 0, 16 * kMiB), repeated.quantile(i / 100.0, 0, 16 * kMiB));
    QCOMPARE(hOnce.total(), hRepeated.total());
    const auto a = hOnce.bins();
    const auto b = hRepeated.bins();
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        QCOMPARE(a[i].count, b[i].count);
}

void TestStatistics::sketchRankWithLargeCounts()
{
    // n = 10^13 (added with multiplicities): ranks stay exact integers at that scale.
    QuantileSketch sketch;
    sketch.add(10, 5'000'000'000'000ull);
    sketch.add(20, 4'000'000'000'000ull);
    sketch.add(30, 1'000'000'000'000ull);
    QCOMPARE(sketch.count(), std::uint64_t(10'000'000'000'000ull));
    QCOMPARE(sketch.quantile(0.0, 10, 30), std::uint64_t(10));
    QCOMPARE(sketch.quantile(0.5, 10, 30), std::uint64_t(10));         // rank 5e12
    QCOMPARE(sketch.quantile(0.5000001, 10, 30), std::uint64_t(20));   // rank 5e12 + 1e6
    QCOMPARE(sketch.quantile(0.9, 10, 30), std::uint64_t(20));         // rank 9e12
    QCOMPARE(sketch.quantile(0.9000001, 10, 30), std::uint64_t(30));
    QCOMPARE(sketch.quantile(1.0, 10, 30), std::uint64_t(30));
}

void TestStatistics::sketchKeysBracketValues()
{
    // Every value lies in its key's bucket [lowerBoundOfKey(k), lowerBoundOfKey(k+1)), the
    // representative lies in that bucket too and within 0.5% (+ rounding) of the value, keys
    // are exact below kExactLimit and never decrease as the value grows.
    Values probe;
    for (std::uint64_t v = 0; v < 5000; ++v)
        probe.push_back(v);
    for (int s = 11; s < 63; ++s)
        for (std::int64_t d : {-1, 0, 1})
            probe.push_back((std::uint64_t(1) << s) + std::uint64_t(d));
    Rng rng(10);
    for (int i = 0; i < 20000; ++i) // log-uniform up to 2^62
        probe.push_back(rng.bits() >> (2 + rng.uniform(0, 61)));
    std::sort(probe.begin(), probe.end());

    std::uint32_t previousKey = 0;
    for (std::uint64_t v : probe) {
        const std::uint32_t key = QuantileSketch::keyFor(v);
        const std::uint64_t lower = QuantileSketch::lowerBoundOfKey(key);
        const std::uint64_t upper = QuantileSketch::lowerBoundOfKey(key + 1);
        const std::uint64_t rep = QuantileSketch::representativeOfKey(key);
        QVERIFY2(lower <= v && v < upper,
                 qPrintable(QStringLiteral("value %1 key %2 bucket [%3, %4)")
                                .arg(v).arg(key).arg(lower).arg(upper)));
        QVERIFY(rep >= lower && rep < upper);
        if (v < QuantileSketch::kExactLimit) {
            QCOMPARE(key, std::uint32_t(v));
            QCOMPARE(rep, v);
        } else {
            QVERIFY2(std::fabs(double(rep) - double(v)) <= 0.0051 * double(v) + 1.0,
                     qPrintable(QStringLiteral("value %1 representative %2").arg(v).arg(rep)));
        }
        QVERIFY(key >= previousKey);
        previousKey = key;
    }
}

void TestStatistics::sketchExtremeValues()
{
    // Values up to the top of the uint64 range: keys must terminate and bracket the value,
    // representatives must not overflow.
    const Values values = {std::uint64_t(1) << 62,   (std::uint64_t(1) << 63) - 1,
                           std::uint64_t(1) << 63,   (std::uint64_t(1) << 63) + 12345,
                           18'000'000'000'000'000'000ull, kU64Max - 1'000'000,
                           kU64Max - 1,              kU64Max};
    for (std::uint64_t v : values) {
        const std::uint32_t key = QuantileSketch::keyFor(v);
        const std::uint64_t lower = QuantileSketch::lowerBoundOfKey(key);
        QVERIFY2(lower <= v, qPrintable(QStringLiteral("value %1 lower %2").arg(v).arg(lower)));
        const std::uint64_t upper = QuantileSketch::lowerBoundOfKey(key + 1);
        QVERIFY(v < upper || upper == kU64Max); // 2^64 itself is not representable
        const std::uint64_t rep = QuantileSketch::representativeOfKey(key);
        QVERIFY2(std::fabs(double(rep) - double(v)) <= kRelTolerance * double(v),
                 qPrintable(QStringLiteral("value %1 representative %2").arg(v).arg(rep)));
    }

    QuantileSketch sketch;
    for (std::uint64_t v : values)
        sketch.add(v);
    const Values sorted = sortedCopy(values);
    for (const Fraction &f : kQuantiles) {
        const std::uint64_t expected = exactQuantile(sorted, f.num, f.den);
        const std::uint64_t actual =
            sketch.quantile(double(f.num) / double(f.den), sorted.front(), sorted.back());
        QVERIFY2(withinSketchError(actual, expected),
                 qPrintable(QStringLiteral("%1: sketch %2, exact %3")
                                .arg(QLatin1String(f.label)).arg(actual).arg(expected)));
    }
}

void TestStatistics::sketchMemoryBound()
{
    // 1e6 distinct values spread log-uniformly over [2^20, 2^60] (consecutive ones at least
    // ~14 apart), in shuffled order: one counter per bucket of ratio 1.01 is all the sketch
    // may keep.
    Rng rng(11);
    Values values;
    values.reserve(1'000'000);
    const double span = std::log(double(std::uint64_t(1) << 40));
    for (int i = 0; i < 1'000'000; ++i)
        values.push_back(std::uint64_t(double(1 << 20) * std::exp(span * (i + 0.25 + 0.5 * rng.unit()) / 1e6)));
    std::mt19937_64 shuffler(12);
    std::shuffle(values.begin(), values.end(), shuffler);
    Values sorted = sortedCopy(values);
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    QCOMPARE(sorted.size(), std::size_t(1'000'000)); // all distinct

    QuantileSketch sketch;
    for (std::uint64_t v : values)
        sketch.add(v);
    const auto buckets = sketch.buckets(sorted.front(), sorted.back());
    const double theoretical = std::log(double(sorted.back()) / 2048.0) / std::log(QuantileSketch::kGamma) + 1;
    QVERIFY2(buckets.size() < 5000,
             qPrintable(QStringLiteral("%1 buckets").arg(buckets.size())));
    QVERIFY(double(buckets.size()) <= theoretical + 1);
    std::uint64_t total = 0;
    for (const auto &b : buckets) {
        QVERIFY(b.count > 0);
        total += b.count;
    }
    QCOMPARE(total, std::uint64_t(1'000'000));
    QCOMPARE(sketch.count(), std::uint64_t(1'000'000));
    // Buckets come in increasing order of representative.
    for (std::size_t i = 1; i < buckets.size(); ++i)
        QVERIFY(buckets[i - 1].representative < buckets[i].representative);

    const Values all = sortedCopy(values);
    for (const Fraction &f : kQuantiles) {
        const std::uint64_t expected = exactQuantile(all, f.num, f.den);
        const std::uint64_t actual =
            sketch.quantile(double(f.num) / double(f.den), all.front(), all.back());
        QVERIFY2(withinSketchError(actual, expected),
                 qPrintable(QStringLiteral("%1: sketch %2, exact %3")
                                .arg(QLatin1String(f.label)).arg(actual).arg(expected)));
    }
}

// ----------------------------------------------------------------------------------------------
// LogHistogram
// ----------------------------------------------------------------------------------------------

void TestStatistics::histogramBinContainsValue()
{
    Values probe = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000, std::uint64_t(1) << 40,
                    16 * kMiB, kU64Max - 1, kU64Max / 2, 18'000'000'000'000'000'000ull};
    for (int s = 1; s < 64; ++s)
        for (std::int64_t d : {-1, 0, 1})
            probe.push_back((std::uint64_t(1) << s) + std::uint64_t(d));
    for (std::uint64_t v = 0; v < 5000; ++v)
        probe.push_back(v);
    Rng rng(20);
    for (int i = 0; i < 50000; ++i)
        probe.push_back(rng.bits() >> rng.uniform(0, 63));

    for (std::uint64_t v : probe) {
        if (v == kU64Max)
            continue; // handled below: an exclusive upper bound cannot exceed it
        const std::uint32_t i = LogHistogram::binIndex(v);
        const std::uint64_t lower = LogHistogram::binLower(i);
        const std::uint64_t upper = LogHistogram::binUpper(i);
        QVERIFY2(lower <= v && v < upper,
                 qPrintable(QStringLiteral("value %1 in bin %2 = [%3, %4)")
                                .arg(v).arg(i).arg(lower).arg(upper)));
    }
    QCOMPARE(LogHistogram::binIndex(0), std::uint32_t(0));
    QCOMPARE(LogHistogram::binUpper(0), std::uint64_t(1));
    // The very largest value goes to the last bin rather than overflowing.
    const std::uint32_t last = LogHistogram::binIndex(kU64Max);
    QVERIFY(LogHistogram::binLower(last) <= kU64Max);
    QCOMPARE(last, LogHistogram::binIndex(kU64Max - 1));

    // Adding a value counts it in exactly the bin bins() reports for it.
    for (std::uint64_t v : {std::uint64_t(0), std::uint64_t(1), std::uint64_t(2),
                            std::uint64_t(1023), std::uint64_t(1024), std::uint64_t(1) << 40,
                            kU64Max - 1}) {
        LogHistogram h;
        h.add(v);
        const auto bins = h.bins();
        QCOMPARE(bins.size(), std::size_t(1));
        QVERIFY(bins[0].lower <= v && v < bins[0].upper);
        QCOMPARE(bins[0].count, std::uint64_t(1));
    }
}

void TestStatistics::histogramEdgesAreCeilOfQuarterPowers()
{
    // Documented edges: bin 0 is [0, 1); bin k+1 starts at ceil(2^(k/4)), i.e. the smallest
    // integer e with e^4 >= 2^k. Checked in exact integer arithmetic while e^4 fits 128 bits.
    QCOMPARE(LogHistogram::binLower(0), std::uint64_t(0));
    for (unsigned k = 0; k <= 124; ++k) {
        const U128 target = static_cast<U128>(1) << k;
        std::uint64_t lo = 1;
        std::uint64_t hi = std::uint64_t(1) << 32;
        while (lo < hi) { // smallest e with e^4 >= 2^k
            const std::uint64_t mid = lo + (hi - lo) / 2;
            const U128 sq = static_cast<U128>(mid) * mid;
            if (sq * sq >= target)
                hi = mid;
            else
                lo = mid + 1;
        }
        QVERIFY2(LogHistogram::binLower(k + 1) == lo,
                 qPrintable(QStringLiteral("k=%1: edge %2, expected %3")
                                .arg(k).arg(LogHistogram::binLower(k + 1)).arg(lo)));
    }
    // Beyond that: non-decreasing, and each doubling starts exactly at a power of two.
    for (std::uint32_t i = 1; i < 64 * LogHistogram::kBinsPerDoubling; ++i)
        QVERIFY(LogHistogram::binLower(i) <= LogHistogram::binLower(i + 1));
    for (unsigned s = 0; s < 64; ++s)
        QCOMPARE(LogHistogram::binLower(1 + s * LogHistogram::kBinsPerDoubling),
                 std::uint64_t(1) << s);
}

void TestStatistics::histogramBinsContiguousAndCounted()
{
    QFETCH(QString, kind);
    const Values values = makeData(kind);
    LogHistogram h;
    for (std::uint64_t v : values)
        h.add(v);
    const Values sorted = sortedCopy(values);
    const auto bins = h.bins();

    QVERIFY(!bins.empty());
    QCOMPARE(h.total(), std::uint64_t(values.size()));
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        QVERIFY2(bins[i].lower < bins[i].upper, "a bin with an empty integer range was reported");
        if (i + 1 < bins.size())
            QCOMPARE(bins[i].upper, bins[i + 1].lower);
        // Brute-force count of the values in [lower, upper).
        const auto from = std::lower_bound(sorted.begin(), sorted.end(), bins[i].lower);
        const auto to = std::lower_bound(sorted.begin(), sorted.end(), bins[i].upper);
        QCOMPARE(bins[i].count, std::uint64_t(to - from));
        total += bins[i].count;
    }
    QCOMPARE(total, std::uint64_t(values.size()));
    // From the lowest filled bin to the highest filled one.
    QVERIFY(bins.front().count > 0 && bins.back().count > 0);
    QVERIFY(bins.front().lower <= sorted.front() && sorted.front() < bins.front().upper);
    QVERIFY(bins.back().lower <= sorted.back() && sorted.back() < bins.back().upper);
}

void TestStatistics::histogramSkipsEmptyRangeBins()
{
    // ceil(2^(1/4)) = ceil(2^(2/4)) = ceil(2^(3/4)) = 2: bins 2..4 hold no integer.
    QCOMPARE(LogHistogram::binLower(2), std::uint64_t(2));
    QCOMPARE(LogHistogram::binLower(5), std::uint64_t(2));
    LogHistogram h;
    h.add(1);
    h.add(2);
    h.add(2);
    h.add(6);
    const auto bins = h.bins();
    // Reference: every non-empty-range bin from the one holding 1 to the one holding 6,
    // from the documented edges ([1,2) [2,3) [3,4) [4,5) [5,6) [6,7)).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> expected;
    for (std::uint32_t i = 1; LogHistogram::binLower(i) <= 6; ++i)
        if (LogHistogram::binLower(i) < LogHistogram::binLower(i + 1))
            expected.push_back({LogHistogram::binLower(i), LogHistogram::binLower(i + 1)});
    QCOMPARE(bins.size(), expected.size());
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
        QCOMPARE(bins[i].lower, expected[i].first);
        QCOMPARE(bins[i].upper, expected[i].second);
        QVERIFY(bins[i].lower < bins[i].upper);
        sum += bins[i].count;
    }
    QCOMPARE(sum, std::uint64_t(4));
    QCOMPARE(bins.front().lower, std::uint64_t(1));
    QCOMPARE(bins.front().count, std::uint64_t(1));
    QCOMPARE(bins[1].lower, std::uint64_t(2));
    QCOMPARE(bins[1].count, std::uint64_t(2));
    // Zero-count bins between filled ones are kept (charts show gaps).
    QVERIFY(std::any_of(bins.begin(), bins.end(), [](const LogHistogram::Bin &b) { return b.count == 0; }));
}

void TestStatistics::histogramMergeAddsCounts()
{
    Rng rng(21);
    Values a;
    Values b;
    for (int i = 0; i < 3000; ++i)
        a.push_back(rng.bits() >> rng.uniform(20, 63));
    for (int i = 0; i < 2000; ++i)
        b.push_back(rng.bits() >> rng.uniform(0, 40)); // different range: merge must grow
    LogHistogram ha;
    LogHistogram hb;
    LogHistogram whole;
    for (std::uint64_t v : a) {
        ha.add(v);
        whole.add(v);
    }
    for (std::uint64_t v : b) {
        hb.add(v);
        whole.add(v);
    }
    for (int order = 0; order < 2; ++order) {
        LogHistogram m = order == 0 ? ha : hb;
        m.merge(order == 0 ? hb : ha);
        QCOMPARE(m.total(), std::uint64_t(a.size() + b.size()));
        const auto mb = m.bins();
        const auto wb = whole.bins();
        QCOMPARE(mb.size(), wb.size());
        for (std::size_t i = 0; i < wb.size(); ++i) {
            QCOMPARE(mb[i].lower, wb[i].lower);
            QCOMPARE(mb[i].upper, wb[i].upper);
            QCOMPARE(mb[i].count, wb[i].count);
        }
    }
    // Per-bin: merged count == count in a + count in b, by brute force.
    LogHistogram m = ha;
    m.merge(hb);
    for (const auto &bin : m.bins()) {
        const auto in = [&bin](std::uint64_t v) { return bin.lower <= v && v < bin.upper; };
        QCOMPARE(bin.count, std::uint64_t(std::count_if(a.begin(), a.end(), in) +
                                          std::count_if(b.begin(), b.end(), in)));
    }
    LogHistogram empty;
    empty.merge(ha);
    QCOMPARE(empty.total(), ha.total());
    QCOMPARE(empty.bins().size(), ha.bins().size());
}

// ----------------------------------------------------------------------------------------------
// StatisticalThreshold
// ----------------------------------------------------------------------------------------------

void TestStatistics::percentileEqualsSketchQuantile_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("p");
    QTest::addColumn<quint64>("num"); // p / 100 == num / den exactly
    QTest::addColumn<quint64>("den");
    for (const char *kind : {"uniformSmall", "lognormalDocSizes", "paretoHeavyTail", "hundred",
                             "zerosPlusFewLarge", "million"}) {
        QTest::addRow("%s p50", kind) << QString::fromLatin1(kind) << 50.0 << quint64(1) << quint64(2);
        QTest::addRow("%s p90", kind) << QString::fromLatin1(kind) << 90.0 << quint64(9) << quint64(10);
        QTest::addRow("%s p99", kind) << QString::fromLatin1(kind) << 99.0 << quint64(99) << quint64(100);
        QTest::addRow("%s p99.9", kind) << QString::fromLatin1(kind) << 99.9 << quint64(999) << quint64(1000);
        QTest::addRow("%s p7", kind) << QString::fromLatin1(kind) << 7.0 << quint64(7) << quint64(100);
    }
}

void TestStatistics::percentileEqualsSketchQuantile()
{
    QFETCH(QString, kind);
    QFETCH(double, p);
    QFETCH(quint64, num);
    QFETCH(quint64, den);
    const Values values = makeData(kind);
    const Values sorted = sortedCopy(values);
    const Distribution d = distributionOf(values);

    const StatisticalThreshold t = StatisticalThreshold::percentile(d, p);
    if (p == 99.0)
        QCOMPARE(t.value, d.quantile(0.99));
    QCOMPARE(t.value, d.quantile(double(num) / double(den)));
    const std::uint64_t expected = exactQuantile(sorted, num, den);
    QVERIFY2(withinSketchError(t.value, expected),
             qPrintable(QStringLiteral("p%1: threshold %2, exact nearest rank %3")
                            .arg(p).arg(t.value).arg(expected)));
    QVERIFY(!t.rule.isEmpty());

    StatisticalThreshold::Parameters params;
    params.percentile = p;
    QCOMPARE(StatisticalThreshold::derive(d, OutlierMethod::Percentile, params).value, t.value);
}

void TestStatistics::tukeyLogFenceExact_data()
{
    // Small integers (below kExactLimit): the sketch's quartiles are exact, so is the fence.
    QTest::addColumn<Values>("values");
    QTest::addColumn<double>("k");
    QTest::addColumn<quint64>("expectedFlagged"); // known by construction; ~0 = not checked

    QTest::newRow("constant 7") << Values(1000, 7) << 1.5 << quint64(0);
    QTest::newRow("constant 1500") << Values(1000, 1500) << 1.5 << quint64(0);
    // Q1 = 1, Q3 = 3, k = 1: fence = 4 * (4/2) - 1 = 7 exactly; 7 is not above it.
    QTest::newRow("integer fence 7") << Values{1, 1, 1, 1, 3, 3, 3, 3, 7, 100} << 1.0 << quint64(1);
    // Q1 = 0, Q3 = 3, k = 2: fence = 4 * 4^2 - 1 = 63 exactly.
    QTest::newRow("integer fence 63")
        << Values{0, 0, 0, 0, 3, 3, 3, 3, 3, 63, 64, 1000} << 2.0 << quint64(2);
    QTest::newRow("zeros plus few") << makeData(QStringLiteral("zerosPlusFewLarge")) << 1.5 << quint64(3);
    QTest::newRow("uniform small k1.5") << makeData(QStringLiteral("uniformSmall")) << 1.5 << ~quint64(0);
    QTest::newRow("uniform small k0") << makeData(QStringLiteral("uniformSmall")) << 0.0 << ~quint64(0);
    Values bulk;
    Rng rng(30);
    for (int i = 0; i < 4000; ++i)
        bulk.push_back(rng.uniform(20, 60));
    bulk.push_back(2000);
    bulk.push_back(1999);
    QTest::newRow("narrow bulk + 2 extremes k1.5") << bulk << 1.5 << quint64(2);
    QTest::newRow("narrow bulk + 2 extremes k3") << bulk << 3.0 << quint64(2);
}

void TestStatistics::tukeyLogFenceExact()
{
    QFETCH(Values, values);
    QFETCH(double, k);
    QFETCH(quint64, expectedFlagged);
    const Values sorted = sortedCopy(values);
    const Distribution d = distributionOf(values);

    const std::uint64_t q1 = exactQuantile(sorted, 1, 4);
    const std::uint64_t q3 = exactQuantile(sorted, 3, 4);
    const std::uint64_t expected = floorOfReal(tukeyFence(q1, q3, k), sorted.back());
    const StatisticalThreshold t = StatisticalThreshold::tukeyLogFence(d, k);
    QVERIFY2(t.value == expected,
             qPrintable(QStringLiteral("Q1 %1 Q3 %2 k %3: threshold %4, expected %5")
                            .arg(q1).arg(q3).arg(k).arg(t.value).arg(expected)));
    if (expectedFlagged != ~quint64(0))
        QCOMPARE(quint64(countAbove(values, t.value)), expectedFlagged);
    QVERIFY(t.rule.contains(QString::number(t.value)));

    StatisticalThreshold::Parameters params;
    params.fenceK = k;
    QCOMPARE(StatisticalThreshold::derive(d, OutlierMethod::Iqr, params).value, t.value);
}

void TestStatistics::tukeyLogFenceWindow_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("k");
    for (const char *kind : {"uniformLarge", "lognormalDocSizes", "paretoHeavyTail", "million",
                             "constantLarge"}) {
        QTest::addRow("%s k1.5", kind) << QString::fromLatin1(kind) << 1.5;
        QTest::addRow("%s k3", kind) << QString::fromLatin1(kind) << 3.0;
    }
}

void TestStatistics::tukeyLogFenceWindow()
{
    // Large values: the sketch's Q1/Q3 may be off by up to 1%. The fence grows with Q3 and
    // shrinks with Q1, so it must lie between the fences of (Q1 + 1%, Q3 - 1%) and
    // (Q1 - 1%, Q3 + 1%) computed from the exact quartiles.
    QFETCH(QString, kind);
    QFETCH(double, k);
    const Values values = makeData(kind);
    const Values sorted = sortedCopy(values);
    const Distribution d = distributionOf(values);

    const long double q1 = exactQuantile(sorted, 1, 4);
    const long double q3 = exactQuantile(sorted, 3, 4);
    const long double e = kRelTolerance;
    const std::uint64_t lo = floorOfReal(tukeyFence(q1 * (1 + e), q3 * (1 - e), k), sorted.back());
    const std::uint64_t hi = floorOfReal(tukeyFence(q1 * (1 - e), q3 * (1 + e), k), sorted.back());
    const StatisticalThreshold t = StatisticalThreshold::tukeyLogFence(d, k);
    QVERIFY2(lo <= t.value && t.value <= hi,
             qPrintable(QStringLiteral("threshold %1 outside [%2, %3]").arg(t.value).arg(lo).arg(hi)));
    if (sorted.front() == sorted.back()) // constant: the fence is the value, nothing flagged
        QCOMPARE(t.value, sorted.back());
}

void TestStatistics::robustZMatchesExactMad_data()
{
    // Symmetric in log space around a known median M: for each |x| both M*e^(s|x|) and
    // M*e^(-s|x|), plus M itself, so the median is exactly M and the MAD of log(1+x) is close
    // to s * 0.6745.
    QTest::addColumn<Values>("values");
    QTest::addColumn<quint64>("median");
    QTest::addColumn<double>("s");
    QTest::addColumn<double>("z");
    QTest::addColumn<bool>("exact"); // all values below kExactLimit

    const auto make = [](double median, double s, int pairs, std::uint64_t seed) {
        Rng rng(seed);
        Values v{std::uint64_t(median)};
        for (int i = 0; i < pairs; ++i) {
            const double x = std::fabs(rng.normal());
            v.push_back(std::uint64_t(std::llround(median * std::exp(s * x))));
            v.push_back(std::uint64_t(std::llround(median * std::exp(-s * x))));
        }
        return v;
    };
    QTest::newRow("small ints z3.5") << make(300, 0.4, 500, 40) << quint64(300) << 0.4 << 3.5 << true;
    QTest::newRow("small ints z2") << make(300, 0.4, 500, 41) << quint64(300) << 0.4 << 2.0 << true;
    QTest::newRow("doc sizes z3.5") << make(200'000, 1.0, 10'000, 42) << quint64(200'000) << 1.0 << 3.5 << false;
    QTest::newRow("doc sizes z1") << make(50'000, 0.5, 10'000, 43) << quint64(50'000) << 0.5 << 1.0 << false;
}

void TestStatistics::robustZMatchesExactMad()
{
    QFETCH(Values, values);
    QFETCH(quint64, median);
    QFETCH(double, s);
    QFETCH(double, z);
    QFETCH(bool, exact);
    const Values sorted = sortedCopy(values);
    QVERIFY(!exact || sorted.back() < QuantileSketch::kExactLimit);
    const Distribution d = distributionOf(values);

    const LogMad ref = exactLogMad(sorted);
    QCOMPARE(quint64(ref.median), median); // the construction is right
    QVERIFY(std::fabs(ref.mad - s * 0.6745) < 0.1 * s);
    QVERIFY(withinSketchError(d.quantile(0.5), median));

    const StatisticalThreshold t = StatisticalThreshold::robustZ(d, z);
    if (exact) {
        const std::uint64_t expected =
            floorOfReal(std::expm1(ref.m + z * ref.mad / 0.6745), sorted.back());
        QCOMPARE(t.value, expected);
    } else {
        // Median off by at most kLogEps in log space, each deviation by 2 * kLogEps, hence the MAD too.
        const double slack = kLogEps + z * 2 * kLogEps / 0.6745;
        const double centre = ref.m + z * ref.mad / 0.6745;
        const std::uint64_t lo = floorOfReal(std::expm1(centre - slack), sorted.back());
        const std::uint64_t hi = floorOfReal(std::expm1(centre + slack), sorted.back());
        QVERIFY2(lo <= t.value && t.value <= hi,
                 qPrintable(QStringLiteral("threshold %1 outside [%2, %3] (centre %4)")
                                .arg(t.value).arg(lo).arg(hi).arg(std::expm1(centre))));
    }
    StatisticalThreshold::Parameters params;
    params.madZ = z;
    QCOMPARE(StatisticalThreshold::derive(d, OutlierMethod::Mad, params).value, t.value);
}

void TestStatistics::robustZMadZeroFallback()
{
    // 600 of 1003 values are 1000: the MAD is 0. The fallback must still give a finite
    // threshold above the whole bulk and below the three extremes.
    Values values(600, 1000);
    for (int i = 0; i < 400; ++i)
        values.push_back(500 + std::uint64_t(i) * 1500 / 399); // 500 .. 2000
    const Values extremes = {10'000'000, 12'000'000, 14'000'000};
    values.insert(values.end(), extremes.begin(), extremes.end());
    const Values sorted = sortedCopy(values);
    const Distribution d = distributionOf(values);

    const LogMad ref = exactLogMad(sorted);
    QCOMPARE(ref.median, std::uint64_t(1000));
    QCOMPARE(ref.mad, 0.0);

    const double z = 3.5;
    const StatisticalThreshold t = StatisticalThreshold::robustZ(d, z);
    QVERIFY(t.value < d.max());
    QVERIFY(t.value >= 2000);
    QCOMPARE(countAbove(values, t.value), extremes.size());

    // Documented fallback: scale = 1.253314 * mean absolute deviation (of log(1 + x)).
    const double centre = ref.m + z * 1.253314 * ref.meanAbsDev;
    const double slack = z * 1.253314 * 2 * kLogEps; // every deviation off by <= 2 * kLogEps
    const std::uint64_t lo = floorOfReal(std::expm1(centre - slack), sorted.back());
    const std::uint64_t hi = floorOfReal(std::expm1(centre + slack), sorted.back());
    QVERIFY2(lo <= t.value && t.value <= hi,
             qPrintable(QStringLiteral("threshold %1 outside [%2, %3]").arg(t.value).arg(lo).arg(hi)));
}

void TestStatistics::robustZConstantFlagsNothing()
{
    for (const Values &values : {Values(500, 7), Values(500, 4'200'042), Values(10, 0), Values{9}}) {
        const Distribution d = distributionOf(values);
        for (const StatisticalThreshold &t :
             {StatisticalThreshold::robustZ(d, 3.5), StatisticalThreshold::tukeyLogFence(d, 1.5),
              StatisticalThreshold::percentile(d, 99)}) {
            QCOMPARE(t.value, values.front());
            QCOMPARE(countAbove(values, t.value), std::size_t(0));
        }
    }
}

void TestStatistics::methodsFlagOnlyExtremes_data()
{
    QTest::addColumn<bool>("docSizes"); // else array lengths (all below kExactLimit)
    QTest::addColumn<int>("method");
    QTest::addColumn<double>("parameter");
    for (bool docSizes : {false, true}) {
        const char *bulk = docSizes ? "doc sizes" : "array lengths";
        QTest::addRow("%s percentile 99.95", bulk) << docSizes << int(OutlierMethod::Percentile) << 99.95;
        QTest::addRow("%s iqr k1.5", bulk) << docSizes << int(OutlierMethod::Iqr) << 1.5;
        QTest::addRow("%s iqr k3", bulk) << docSizes << int(OutlierMethod::Iqr) << 3.0;
        QTest::addRow("%s mad z3.5", bulk) << docSizes << int(OutlierMethod::Mad) << 3.5;
        QTest::addRow("%s mad z5", bulk) << docSizes << int(OutlierMethod::Mad) << 5.0;
    }
}

void TestStatistics::methodsFlagOnlyExtremes()
{
    // 9995 values log-uniform over one decade (array lengths 20..200, or document sizes
    // 2 KB..20 KB) and 5 far above (1e5+ elements, or near the 16 MiB limit), spread through
    // the scan. p99.95 of 10000 values is the 9995th, the bulk maximum.
    QFETCH(bool, docSizes);
    QFETCH(int, method);
    QFETCH(double, parameter);
    Rng rng(50);
    const double base = docSizes ? 2000.0 : 20.0;
    Values values;
    for (int i = 0; i < 9995; ++i)
        values.push_back(std::uint64_t(base * std::exp(std::log(10.0) * rng.unit())));
    const Values extremes = docSizes ? Values{15'000'000, 15'500'000, 16'000'000, 16'500'000, 16'700'000}
                                     : Values{100'000, 120'000, 150'000, 400'000, 1'000'000};
    for (std::size_t i = 0; i < extremes.size(); ++i)
        values.insert(values.begin() + std::ptrdiff_t(1 + i * 1999), extremes[i]);
    const Values sorted = sortedCopy(values);
    const std::uint64_t bulkMax = sorted[sorted.size() - extremes.size() - 1];
    const Distribution d = distributionOf(values);

    StatisticalThreshold::Parameters params;
    params.percentile = parameter;
    params.fenceK = parameter;
    params.madZ = parameter;
    const StatisticalThreshold t = StatisticalThreshold::derive(d, OutlierMethod(method), params);
    const std::size_t flagged = countAbove(values, t.value);
    QVERIFY(t.value < extremes.front()); // every extreme is flagged
    if (OutlierMethod(method) == OutlierMethod::Percentile && bulkMax >= QuantileSketch::kExactLimit) {
        // The threshold is the sketch's p99.95, within 1% of the bulk maximum: bulk values in
        // that 1% may be flagged too, nothing below it.
        QVERIFY2(withinSketchError(t.value, bulkMax),
                 qPrintable(QStringLiteral("threshold %1, exact p99.95 %2").arg(t.value).arg(bulkMax)));
        QVERIFY(t.value >= std::uint64_t(0.99 * double(bulkMax)));
        QVERIFY(flagged >= extremes.size());
        return;
    }
    QVERIFY2(flagged == extremes.size(),
             qPrintable(QStringLiteral("%1 flags %2 values above %3 (bulk max %4)")
                            .arg(t.rule).arg(flagged).arg(t.value).arg(bulkMax)));
    QVERIFY(t.value >= bulkMax);
}

QTEST_APPLESS_MAIN(TestStatistics)
#include "tst_statistics.moc"
