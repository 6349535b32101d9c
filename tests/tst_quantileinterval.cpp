// QuantileInterval: the distribution-free confidence intervals of a sample's quantiles, checked
// against published order-statistic tables and by simulation (the stated 95 % interval must
// hold the true quantile in about 95 % of samples), and SamplePrecision on a real sample.
#include "analysis/Analyzer.h"
#include "analysis/SamplePrecision.h"
#include "demo/DemoDataGenerator.h"
#include "source/DumpFileSource.h"
#include "stats/QuantileInterval.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace oe;

class TestQuantileInterval : public QObject
{
    Q_OBJECT

    // Draws `trials` samples of `n` from a lognormal (median e^mu) and counts how often the
    // interval for q holds the true quantile exp(mu + sigma z_q).
    static double coverage(double q, std::uint64_t n, int trials, double trueQuantile,
                           std::mt19937_64 &rng)
    {
        std::lognormal_distribution<double> sizes(10.0, 1.0);
        const QuantileInterval::Ranks ranks = QuantileInterval::ranks(q, n);
        if (!ranks.lower || !ranks.upper)
            return -1.0;
        int held = 0;
        std::vector<double> sample(n);
        for (int t = 0; t < trials; ++t) {
            for (double &x : sample)
                x = sizes(rng);
            std::sort(sample.begin(), sample.end());
            held += sample[*ranks.lower - 1] <= trueQuantile &&
                    trueQuantile <= sample[*ranks.upper - 1];
        }
        return double(held) / trials;
    }

private slots:
    void ranksMatchThePublishedTable()
    {
        // The median of n = 100 at 95 %: X(40) to X(61) (Conover, Practical Nonparametric
        // Statistics, table A3; also Hahn & Meeker table A.15).
        const auto median = QuantileInterval::ranks(0.5, 100);
        QCOMPARE(median.lower.value_or(0), std::uint64_t(40));
        QCOMPARE(median.upper.value_or(0), std::uint64_t(61));
        QVERIFY2(median.coverage >= 0.95 && median.coverage < 0.97,
                 qPrintable(QString::number(median.coverage)));
        // Too few documents to bound p99 from above: every rank below n is too likely to be
        // under it (1 - 0.99^100 = 0.63 < 0.975).
        const auto p99 = QuantileInterval::ranks(0.99, 100);
        QVERIFY(!p99.upper);
        // From n = 368 on, X(n) bounds p99 from above at 97.5 % (1 - 0.99^n >= 0.975).
        QVERIFY(!QuantileInterval::ranks(0.99, 366).upper);
        QCOMPARE(QuantileInterval::ranks(0.99, 368).upper.value_or(0), std::uint64_t(368));
        // Large n: the ranks sit about z sqrt(n q (1-q)) either side of n q.
        const auto big = QuantileInterval::ranks(0.99, 1'000'000);
        QVERIFY(big.lower && big.upper);
        const double halfWidth = 1.96 * std::sqrt(1e6 * 0.99 * 0.01);
        QVERIFY(std::abs(double(*big.lower) - (990'000 - halfWidth)) <= 2);
        QVERIFY(std::abs(double(*big.upper) - (990'000 + halfWidth + 1)) <= 2);
    }

    void statedIntervalsHoldTheTruthAboutNinetyFivePercentOfTheTime()
    {
        std::mt19937_64 rng(42);
        // Lognormal(10, 1): p50 = e^10, p99 = e^(10 + 2.3263).
        const double p50 = std::exp(10.0), p99 = std::exp(10.0 + 2.326348);
        for (const std::uint64_t n : {std::uint64_t(1000), std::uint64_t(400)}) {
            const double median = coverage(0.5, n, 1000, p50, rng);
            const double tail = coverage(0.99, n, 1000, p99, rng);
            qInfo("n = %llu: p50 interval held the truth %.1f %%, p99 %.1f %%",
                  static_cast<unsigned long long>(n), median * 100, tail * 100);
            QVERIFY2(median >= 0.93 && median <= 0.99, qPrintable(QString::number(median)));
            QVERIFY2(tail >= 0.93 && tail <= 0.995, qPrintable(QString::number(tail)));
        }
    }

    void populationAboveTheSampleMaxIsBounded()
    {
        const double share = QuantileInterval::shareAboveSampleMax(1000);
        QVERIFY(std::abs(share - 0.002991) < 1e-5);
        // Simulation: the true share of a uniform(0,1) population above the sample max is
        // 1 - max; it exceeds the bound in at most ~5 % of samples.
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(0.0, 1.0);
        int exceeded = 0;
        for (int t = 0; t < 2000; ++t) {
            double maximum = 0.0;
            for (int i = 0; i < 1000; ++i)
                maximum = std::max(maximum, u(rng));
            exceeded += 1.0 - maximum > share;
        }
        QVERIFY2(exceeded >= 50 && exceeded <= 140, qPrintable(QString::number(exceeded)));
    }

    void sampleSizeForAChosenPrecision()
    {
        QVERIFY(std::abs(QuantileInterval::twoSidedZ(0.95) - 1.959964) < 1e-5);
        // p99 within ±0.1 percentile points: 1.96^2 * 0.99 * 0.01 / 0.001^2.
        QCOMPARE(QuantileInterval::sampleSizeFor(0.99, 0.001), std::uint64_t(38031));
        // A sample of that size does pin the interval's ranks to p98.9..p99.1.
        const std::uint64_t n = 38031;
        const auto ranks = QuantileInterval::ranks(0.99, n);
        QVERIFY(double(*ranks.lower) / n >= 0.989 - 1e-4);
        QVERIFY(double(*ranks.upper) / n <= 0.991 + 1e-4);
    }

    void samplePrecisionOfARealSample()
    {
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral("book_sales.bson"));
        QString error;
        QVERIFY2(DemoDataGenerator::write(QStringLiteral("book_sales"), dump, 2000,
                                          DemoDataGenerator::kDemoSeed, &error),
                 qPrintable(error));
        auto analyse = [&](const AnalysisOptions &options) {
            DumpFileSource source(dump);
            return Analyzer::run(source, options);
        };
        AnalysisOptions sample;
        sample.selection.mode = AnalysisOptions::Mode::Sample;
        sample.selection.count = 500;
        const CollectionProfile sampled = analyse(sample);
        QVERIFY(sampled.randomSample);
        QCOMPARE(sampled.population.value_or(0), std::uint64_t(2000));
        const SamplePrecision precision = SamplePrecision::of(sampled);
        QVERIFY(precision.applies);
        QVERIFY(precision.p50.low && precision.p50.high && precision.p99.low && precision.p99.high);
        QVERIFY(*precision.p50.low <= sampled.sizes.quantile(0.5));
        QVERIFY(sampled.sizes.quantile(0.5) <= *precision.p50.high);
        QVERIFY(*precision.p99.low <= *precision.p99.high);
        // The whole collection's p50 lies in the sample's interval (the seed is fixed).
        const CollectionProfile whole = analyse(AnalysisOptions{});
        QVERIFY(!whole.randomSample);
        QVERIFY(!SamplePrecision::of(whole).applies);
        QVERIFY(*precision.p50.low <= whole.sizes.quantile(0.5));
        QVERIFY(whole.sizes.quantile(0.5) <= *precision.p50.high);
        QCOMPARE(precision.documentsAboveMax.value_or(0),
                 std::uint64_t(std::ceil(QuantileInterval::shareAboveSampleMax(500) * 2000)));
    }
};

QTEST_GUILESS_MAIN(TestQuantileInterval)
#include "tst_quantileinterval.moc"
