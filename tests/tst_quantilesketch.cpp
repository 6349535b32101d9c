// Unit tests for QuantileSketch and Distribution. Every expectation is computed independently
// from the raw data (exact sort, brute-force counting, integer arithmetic), never copied from
// the code under test.

#include "StatisticsReference.h"
#include "stats/Distribution.h"
#include "stats/LogHistogram.h"
#include "stats/QuantileSketch.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace oe;
using namespace statsref;

namespace {

struct Fraction
{
    std::uint64_t num;
    std::uint64_t den;
    const char *label;
};

// 7/100 and 29/100 are there because q*n is not an integer in floating point for them
// (0.07 * 100 == 7.000000000000001), which a naive ceil(q * n) gets wrong.
const Fraction kQuantiles[] = {{0, 1, "q0"},         {7, 100, "p7"},  {1, 4, "p25"},
                               {29, 100, "p29"},     {1, 2, "p50"},   {3, 4, "p75"},
                               {9, 10, "p90"},       {19, 20, "p95"}, {99, 100, "p99"},
                               {999, 1000, "p99.9"}, {1, 1, "q1"}};

} // namespace

class TestQuantileSketch : public QObject
{
    Q_OBJECT

private slots:
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
};

void TestQuantileSketch::quantilesMatchExactSort()
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

void TestQuantileSketch::exactMoments()
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

void TestQuantileSketch::emptyDistribution()
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

void TestQuantileSketch::mergeEqualsWhole_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("interleaved");
    for (const char *kind : {"uniformSmall", "uniformLarge", "lognormalDocSizes", "paretoHeavyTail",
                             "zerosPlusFewLarge", "two", "million"}) {
        QTest::addRow("%s halves", kind) << QString::fromLatin1(kind) << false;
        QTest::addRow("%s interleaved", kind) << QString::fromLatin1(kind) << true;
    }
}

void TestQuantileSketch::mergeEqualsWhole()
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

void TestQuantileSketch::mergeWithEmpty()
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

void TestQuantileSketch::addWithTimesEqualsRepeatedAdd()
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
        QCOMPARE(once.quantile(i / 100.0, 0, 16 * kMiB),
                 repeated.quantile(i / 100.0, 0, 16 * kMiB));
    QCOMPARE(hOnce.total(), hRepeated.total());
    const auto a = hOnce.bins();
    const auto b = hRepeated.bins();
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        QCOMPARE(a[i].count, b[i].count);
}

void TestQuantileSketch::sketchRankWithLargeCounts()
{
    // n = 10^13 (added with multiplicities): ranks stay exact integers at that scale.
    QuantileSketch sketch;
    sketch.add(10, 5'000'000'000'000ull);
    sketch.add(20, 4'000'000'000'000ull);
    sketch.add(30, 1'000'000'000'000ull);
    QCOMPARE(sketch.count(), std::uint64_t(10'000'000'000'000ull));
    QCOMPARE(sketch.quantile(0.0, 10, 30), std::uint64_t(10));
    QCOMPARE(sketch.quantile(0.5, 10, 30), std::uint64_t(10));       // rank 5e12
    QCOMPARE(sketch.quantile(0.5000001, 10, 30), std::uint64_t(20)); // rank 5e12 + 1e6
    QCOMPARE(sketch.quantile(0.9, 10, 30), std::uint64_t(20));       // rank 9e12
    QCOMPARE(sketch.quantile(0.9000001, 10, 30), std::uint64_t(30));
    QCOMPARE(sketch.quantile(1.0, 10, 30), std::uint64_t(30));
}

void TestQuantileSketch::sketchKeysBracketValues()
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
                                .arg(v)
                                .arg(key)
                                .arg(lower)
                                .arg(upper)));
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

void TestQuantileSketch::sketchExtremeValues()
{
    // Values up to the top of the uint64 range: keys must terminate and bracket the value,
    // representatives must not overflow.
    const Values values = {std::uint64_t(1) << 62,
                           (std::uint64_t(1) << 63) - 1,
                           std::uint64_t(1) << 63,
                           (std::uint64_t(1) << 63) + 12345,
                           18'000'000'000'000'000'000ull,
                           kU64Max - 1'000'000,
                           kU64Max - 1,
                           kU64Max};
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
                                .arg(QLatin1String(f.label))
                                .arg(actual)
                                .arg(expected)));
    }
}

void TestQuantileSketch::sketchMemoryBound()
{
    // 1e6 distinct values spread log-uniformly over [2^20, 2^60] (consecutive ones at least
    // ~14 apart), in shuffled order: one counter per bucket of ratio 1.01 is all the sketch
    // may keep.
    Rng rng(11);
    Values values;
    values.reserve(1'000'000);
    const double span = std::log(double(std::uint64_t(1) << 40));
    for (int i = 0; i < 1'000'000; ++i)
        values.push_back(
            std::uint64_t(double(1 << 20) * std::exp(span * (i + 0.25 + 0.5 * rng.unit()) / 1e6)));
    std::mt19937_64 shuffler(12);
    std::shuffle(values.begin(), values.end(), shuffler);
    Values sorted = sortedCopy(values);
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    QCOMPARE(sorted.size(), std::size_t(1'000'000)); // all distinct

    QuantileSketch sketch;
    for (std::uint64_t v : values)
        sketch.add(v);
    const auto buckets = sketch.buckets(sorted.front(), sorted.back());
    const double theoretical =
        std::log(double(sorted.back()) / 2048.0) / std::log(QuantileSketch::kGamma) + 1;
    QVERIFY2(buckets.size() < 5000, qPrintable(QStringLiteral("%1 buckets").arg(buckets.size())));
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
                                .arg(QLatin1String(f.label))
                                .arg(actual)
                                .arg(expected)));
    }
}

QTEST_APPLESS_MAIN(TestQuantileSketch)
#include "tst_quantilesketch.moc"
