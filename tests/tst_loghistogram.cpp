// Unit tests for LogHistogram. Every expectation is computed independently from the raw data
// (documented bin edges in exact integer arithmetic, brute-force counting), never copied from
// the code under test.

#include "StatisticsReference.h"
#include "stats/LogHistogram.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace oe;
using namespace statsref;

class TestLogHistogram : public QObject
{
    Q_OBJECT

private slots:
    void histogramBinContainsValue();
    void histogramEdgesAreCeilOfQuarterPowers();
    void histogramBinsContiguousAndCounted_data() { addDataSetRows(); }
    void histogramBinsContiguousAndCounted();
    void histogramSkipsEmptyRangeBins();
    void histogramMergeAddsCounts();
};

void TestLogHistogram::histogramBinContainsValue()
{
    Values probe = {0,           1,
                    2,           3,
                    4,           5,
                    6,           7,
                    8,           9,
                    10,          100,
                    1000,        std::uint64_t(1) << 40,
                    16 * kMiB,   kU64Max - 1,
                    kU64Max / 2, 18'000'000'000'000'000'000ull};
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
        QVERIFY2(lower <= v && v < upper, qPrintable(QStringLiteral("value %1 in bin %2 = [%3, %4)")
                                                         .arg(v)
                                                         .arg(i)
                                                         .arg(lower)
                                                         .arg(upper)));
    }
    QCOMPARE(LogHistogram::binIndex(0), std::uint32_t(0));
    QCOMPARE(LogHistogram::binUpper(0), std::uint64_t(1));
    // The very largest value goes to the last bin rather than overflowing.
    const std::uint32_t last = LogHistogram::binIndex(kU64Max);
    QVERIFY(LogHistogram::binLower(last) <= kU64Max);
    QCOMPARE(last, LogHistogram::binIndex(kU64Max - 1));

    // Adding a value counts it in exactly the bin bins() reports for it.
    for (std::uint64_t v :
         {std::uint64_t(0), std::uint64_t(1), std::uint64_t(2), std::uint64_t(1023),
          std::uint64_t(1024), std::uint64_t(1) << 40, kU64Max - 1}) {
        LogHistogram h;
        h.add(v);
        const auto bins = h.bins();
        QCOMPARE(bins.size(), std::size_t(1));
        QVERIFY(bins[0].lower <= v && v < bins[0].upper);
        QCOMPARE(bins[0].count, std::uint64_t(1));
    }
}

void TestLogHistogram::histogramEdgesAreCeilOfQuarterPowers()
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
                                .arg(k)
                                .arg(LogHistogram::binLower(k + 1))
                                .arg(lo)));
    }
    // Beyond that: non-decreasing, and each doubling starts exactly at a power of two.
    for (std::uint32_t i = 1; i < 64 * LogHistogram::kBinsPerDoubling; ++i)
        QVERIFY(LogHistogram::binLower(i) <= LogHistogram::binLower(i + 1));
    for (unsigned s = 0; s < 64; ++s)
        QCOMPARE(LogHistogram::binLower(1 + s * LogHistogram::kBinsPerDoubling), std::uint64_t(1)
                                                                                     << s);
}

void TestLogHistogram::histogramBinsContiguousAndCounted()
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

void TestLogHistogram::histogramSkipsEmptyRangeBins()
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
    QVERIFY(std::any_of(bins.begin(), bins.end(),
                        [](const LogHistogram::Bin &b) { return b.count == 0; }));
}

void TestLogHistogram::histogramMergeAddsCounts()
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

QTEST_APPLESS_MAIN(TestLogHistogram)
#include "tst_loghistogram.moc"
