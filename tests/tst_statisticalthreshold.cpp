// Unit tests for StatisticalThreshold (percentile, log-space Tukey fence, robust z-score).
// Every expectation is computed independently from the raw data (exact sort, exact quartiles
// and MAD, brute-force counting), never copied from the code under test.

#include "StatisticsReference.h"
#include "stats/Distribution.h"
#include "stats/OutlierMethod.h"
#include "stats/QuantileSketch.h"
#include "stats/StatisticalThreshold.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace oe;
using namespace statsref;

Q_DECLARE_METATYPE(std::vector<std::uint64_t>)

namespace {

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

class TestStatisticalThreshold : public QObject
{
    Q_OBJECT

private slots:
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

void TestStatisticalThreshold::percentileEqualsSketchQuantile_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("p");
    QTest::addColumn<quint64>("num"); // p / 100 == num / den exactly
    QTest::addColumn<quint64>("den");
    for (const char *kind : {"uniformSmall", "lognormalDocSizes", "paretoHeavyTail", "hundred",
                             "zerosPlusFewLarge", "million"}) {
        QTest::addRow("%s p50", kind)
            << QString::fromLatin1(kind) << 50.0 << quint64(1) << quint64(2);
        QTest::addRow("%s p90", kind)
            << QString::fromLatin1(kind) << 90.0 << quint64(9) << quint64(10);
        QTest::addRow("%s p99", kind)
            << QString::fromLatin1(kind) << 99.0 << quint64(99) << quint64(100);
        QTest::addRow("%s p99.9", kind)
            << QString::fromLatin1(kind) << 99.9 << quint64(999) << quint64(1000);
        QTest::addRow("%s p7", kind)
            << QString::fromLatin1(kind) << 7.0 << quint64(7) << quint64(100);
    }
}

void TestStatisticalThreshold::percentileEqualsSketchQuantile()
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
                            .arg(p)
                            .arg(t.value)
                            .arg(expected)));
    QVERIFY(!t.rule.isEmpty());

    StatisticalThreshold::Parameters params;
    params.percentile = p;
    QCOMPARE(StatisticalThreshold::derive(d, OutlierMethod::Percentile, params).value, t.value);
}

void TestStatisticalThreshold::tukeyLogFenceExact_data()
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
    QTest::newRow("zeros plus few")
        << makeData(QStringLiteral("zerosPlusFewLarge")) << 1.5 << quint64(3);
    QTest::newRow("uniform small k1.5")
        << makeData(QStringLiteral("uniformSmall")) << 1.5 << ~quint64(0);
    QTest::newRow("uniform small k0")
        << makeData(QStringLiteral("uniformSmall")) << 0.0 << ~quint64(0);
    Values bulk;
    Rng rng(30);
    for (int i = 0; i < 4000; ++i)
        bulk.push_back(rng.uniform(20, 60));
    bulk.push_back(2000);
    bulk.push_back(1999);
    QTest::newRow("narrow bulk + 2 extremes k1.5") << bulk << 1.5 << quint64(2);
    QTest::newRow("narrow bulk + 2 extremes k3") << bulk << 3.0 << quint64(2);
}

void TestStatisticalThreshold::tukeyLogFenceExact()
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
                            .arg(q1)
                            .arg(q3)
                            .arg(k)
                            .arg(t.value)
                            .arg(expected)));
    if (expectedFlagged != ~quint64(0))
        QCOMPARE(quint64(countAbove(values, t.value)), expectedFlagged);
    QVERIFY(t.rule.contains(QString::number(t.value)));

    StatisticalThreshold::Parameters params;
    params.fenceK = k;
    QCOMPARE(StatisticalThreshold::derive(d, OutlierMethod::Iqr, params).value, t.value);
}

void TestStatisticalThreshold::tukeyLogFenceWindow_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("k");
    for (const char *kind :
         {"uniformLarge", "lognormalDocSizes", "paretoHeavyTail", "million", "constantLarge"}) {
        QTest::addRow("%s k1.5", kind) << QString::fromLatin1(kind) << 1.5;
        QTest::addRow("%s k3", kind) << QString::fromLatin1(kind) << 3.0;
    }
}

void TestStatisticalThreshold::tukeyLogFenceWindow()
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
    QVERIFY2(
        lo <= t.value && t.value <= hi,
        qPrintable(QStringLiteral("threshold %1 outside [%2, %3]").arg(t.value).arg(lo).arg(hi)));
    if (sorted.front() == sorted.back()) // constant: the fence is the value, nothing flagged
        QCOMPARE(t.value, sorted.back());
}

void TestStatisticalThreshold::robustZMatchesExactMad_data()
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
    QTest::newRow("small ints z3.5")
        << make(300, 0.4, 500, 40) << quint64(300) << 0.4 << 3.5 << true;
    QTest::newRow("small ints z2") << make(300, 0.4, 500, 41) << quint64(300) << 0.4 << 2.0 << true;
    QTest::newRow("doc sizes z3.5")
        << make(200'000, 1.0, 10'000, 42) << quint64(200'000) << 1.0 << 3.5 << false;
    QTest::newRow("doc sizes z1") << make(50'000, 0.5, 10'000, 43) << quint64(50'000) << 0.5 << 1.0
                                  << false;
}

void TestStatisticalThreshold::robustZMatchesExactMad()
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
        // Median off by at most kLogEps in log space, each deviation by 2 * kLogEps,
        // hence the MAD too.
        const double slack = kLogEps + z * 2 * kLogEps / 0.6745;
        const double centre = ref.m + z * ref.mad / 0.6745;
        const std::uint64_t lo = floorOfReal(std::expm1(centre - slack), sorted.back());
        const std::uint64_t hi = floorOfReal(std::expm1(centre + slack), sorted.back());
        QVERIFY2(lo <= t.value && t.value <= hi,
                 qPrintable(QStringLiteral("threshold %1 outside [%2, %3] (centre %4)")
                                .arg(t.value)
                                .arg(lo)
                                .arg(hi)
                                .arg(std::expm1(centre))));
    }
    StatisticalThreshold::Parameters params;
    params.madZ = z;
    QCOMPARE(StatisticalThreshold::derive(d, OutlierMethod::Mad, params).value, t.value);
}

void TestStatisticalThreshold::robustZMadZeroFallback()
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
    QVERIFY2(
        lo <= t.value && t.value <= hi,
        qPrintable(QStringLiteral("threshold %1 outside [%2, %3]").arg(t.value).arg(lo).arg(hi)));
}

void TestStatisticalThreshold::robustZConstantFlagsNothing()
{
    for (const Values &values :
         {Values(500, 7), Values(500, 4'200'042), Values(10, 0), Values{9}}) {
        const Distribution d = distributionOf(values);
        for (const StatisticalThreshold &t :
             {StatisticalThreshold::robustZ(d, 3.5), StatisticalThreshold::tukeyLogFence(d, 1.5),
              StatisticalThreshold::percentile(d, 99)}) {
            QCOMPARE(t.value, values.front());
            QCOMPARE(countAbove(values, t.value), std::size_t(0));
        }
    }
}

void TestStatisticalThreshold::methodsFlagOnlyExtremes_data()
{
    QTest::addColumn<bool>("docSizes"); // else array lengths (all below kExactLimit)
    QTest::addColumn<int>("method");
    QTest::addColumn<double>("parameter");
    for (bool docSizes : {false, true}) {
        const char *bulk = docSizes ? "doc sizes" : "array lengths";
        QTest::addRow("%s percentile 99.95", bulk)
            << docSizes << int(OutlierMethod::Percentile) << 99.95;
        QTest::addRow("%s iqr k1.5", bulk) << docSizes << int(OutlierMethod::Iqr) << 1.5;
        QTest::addRow("%s iqr k3", bulk) << docSizes << int(OutlierMethod::Iqr) << 3.0;
        QTest::addRow("%s mad z3.5", bulk) << docSizes << int(OutlierMethod::Mad) << 3.5;
        QTest::addRow("%s mad z5", bulk) << docSizes << int(OutlierMethod::Mad) << 5.0;
    }
}

void TestStatisticalThreshold::methodsFlagOnlyExtremes()
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
    const Values extremes = docSizes
                                ? Values{15'000'000, 15'500'000, 16'000'000, 16'500'000, 16'700'000}
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
    if (OutlierMethod(method) == OutlierMethod::Percentile &&
        bulkMax >= QuantileSketch::kExactLimit) {
        // The threshold is the sketch's p99.95, within 1% of the bulk maximum: bulk values in
        // that 1% may be flagged too, nothing below it.
        QVERIFY2(
            withinSketchError(t.value, bulkMax),
            qPrintable(QStringLiteral("threshold %1, exact p99.95 %2").arg(t.value).arg(bulkMax)));
        QVERIFY(t.value >= std::uint64_t(0.99 * double(bulkMax)));
        QVERIFY(flagged >= extremes.size());
        return;
    }
    QVERIFY2(flagged == extremes.size(),
             qPrintable(QStringLiteral("%1 flags %2 values above %3 (bulk max %4)")
                            .arg(t.rule)
                            .arg(flagged)
                            .arg(t.value)
                            .arg(bulkMax)));
    QVERIFY(t.value >= bulkMax);
}

QTEST_APPLESS_MAIN(TestStatisticalThreshold)
#include "tst_statisticalthreshold.moc"
