#include "BsonFixtures.h"
#include "analysis/Analyzer.h"
#include "analysis/SplitRecommendation.h"
#include "analysis/ThresholdImpact.h"
#include "source/DumpFileSource.h"
#include "stats/SplitMix64.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace oe;

namespace {

// One generated document and what we know about it without the code under test.
struct Generated
{
    QByteArray bytes;
    int length = -1; // elements of "items"; -1 when the document has no such array
    std::uint64_t size() const { return std::uint64_t(bytes.size()); }
};

// BSON bytes of element `index` of an int32 array: type byte, decimal key and NUL, int32.
std::uint64_t elementBytes(int index)
{
    return 1 + std::uint64_t(QByteArray::number(index).size()) + 1 + 4;
}

// Bytes that leave a document when its array keeps only its first `keep` elements.
std::uint64_t movedBytes(int length, std::uint64_t keep)
{
    std::uint64_t bytes = 0;
    for (int j = int(keep); j < length; ++j)
        bytes += elementBytes(j);
    return bytes;
}

struct Expected
{
    std::uint64_t documentsOver = 0;
    std::uint64_t elementsMoved = 0;
    std::uint64_t bytesMoved = 0;
    std::uint64_t largestMoved = 0; // most elements moved out of one document
};

Expected expectedSplit(const QList<Generated> &docs, std::uint64_t keep)
{
    Expected e;
    for (const Generated &d : docs) {
        if (d.length >= 0 && std::uint64_t(d.length) > keep) {
            ++e.documentsOver;
            const std::uint64_t moved = std::uint64_t(d.length) - keep;
            e.elementsMoved += moved;
            e.largestMoved = std::max(e.largestMoved, moved);
            const std::uint64_t bytes = movedBytes(d.length, keep);
            e.bytesMoved += bytes;
        }
    }
    return e;
}

std::uint64_t countSizesAbove(const QList<Generated> &docs, double threshold)
{
    return std::uint64_t(std::count_if(docs.begin(), docs.end(), [&](const Generated &d) {
        return double(d.size()) > threshold;
    }));
}

std::vector<std::uint64_t> sizesDescending(const QList<Generated> &docs)
{
    std::vector<std::uint64_t> sizes;
    for (const auto &d : docs)
        sizes.push_back(d.size());
    std::sort(sizes.rbegin(), sizes.rend());
    return sizes;
}

std::vector<std::uint64_t> lengthsDescending(const QList<Generated> &docs)
{
    std::vector<std::uint64_t> lengths;
    for (const auto &d : docs)
        if (d.length > 0)
            lengths.push_back(std::uint64_t(d.length));
    std::sort(lengths.rbegin(), lengths.rend());
    return lengths;
}

void shuffle(QList<Generated> &docs, std::uint64_t seed)
{
    SplitMix64 random(seed);
    for (qsizetype i = docs.size() - 1; i > 0; --i)
        std::swap(docs[i], docs[qsizetype(random.below(std::uint64_t(i) + 1))]);
}

// The sketch places a value in a bucket about 1% wide (QuantileSketch::kGamma) and counts it
// at the bucket's middle, so only values within 1% of a threshold can land on the wrong side.
constexpr double kSketchWidth = 1.01;

} // namespace

// What a threshold catches, for the live counters next to the charts: checked against counts
// computed straight from the generated documents, exact when the scan kept every document
// above the threshold and otherwise estimated within the sketch's resolution.
class TestThresholdImpact : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    // Exact set: small arrays, a few outliers, empty arrays, documents without the array.
    QList<Generated> m_docs;
    CollectionProfile m_profile;
    // Estimated set: lengths and sizes above the sketch's exact range, tiny candidate lists.
    QList<Generated> m_large;
    CollectionProfile m_truncated;
    static constexpr std::size_t kTinyCapacity = 4;

    CollectionProfile analyse(const QList<Generated> &docs, const QString &name,
                              const AnalysisOptions &options)
    {
        QList<QByteArray> bytes;
        for (const auto &d : docs)
            bytes << d.bytes;
        const QString path = m_dir.filePath(name);
        if (!fixtures::writeFile(path, fixtures::concat(bytes)))
            qFatal("cannot write %s", qPrintable(path));
        DumpFileSource source(path);
        return Analyzer::run(source, options);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        int id = 0;
        for (int i = 0; i < 200; ++i) {
            const int length = 5 + (i * 7) % 20; // 5..24, each length ten times
            m_docs << Generated{fixtures::documentWithArray(id++, length), length};
        }
        for (int length : {300, 450, 600, 750, 900})
            m_docs << Generated{fixtures::documentWithArray(id++, length), length};
        for (int i = 0; i < 10; ++i)
            m_docs << Generated{fixtures::documentWithArray(id++, 0), 0};
        for (int i = 0; i < 10; ++i)
            m_docs << Generated{fixtures::documentOfSize(id++, 100 + 37 * i), -1};
        // Larger than every document but the two longest arrays: the largest one left whole
        // whenever those two are split.
        m_docs << Generated{fixtures::documentOfSize(id++, 6000), -1};
        shuffle(m_docs, 7);
        AnalysisOptions options;
        options.threads = 2;
        options.batchBytes = 4096; // several batches, so both workers see documents
        m_profile = analyse(m_docs, QStringLiteral("exact.bson"), options);
        QCOMPARE(m_profile.status, CollectionProfile::Status::Complete);
        QCOMPARE(m_profile.documents, std::uint64_t(m_docs.size()));
        // Our bookkeeping of the generated documents agrees with a plain libbson reading.
        const auto reference =
            fixtures::readReference(m_dir.filePath(QStringLiteral("exact.bson")));
        QCOMPARE(reference.size(), m_docs.size());
        for (qsizetype i = 0; i < m_docs.size(); ++i) {
            QCOMPARE(std::uint64_t(reference[i].size), m_docs[i].size());
            QCOMPARE(int(reference[i].longestArrayLength), std::max(m_docs[i].length, 0));
        }

        for (int i = 0; i < 300; ++i) {
            const int length = 1000 + int((std::uint64_t(i) * 7919) % 4001); // distinct
            m_large << Generated{fixtures::documentWithArray(i, length), length};
        }
        AnalysisOptions tiny;
        tiny.threads = 2;
        tiny.batchBytes = 64 << 10;
        tiny.limits.largestDocumentsCapacity = kTinyCapacity;
        tiny.limits.longestArraysCapacity = kTinyCapacity;
        tiny.limits.perPathCapacity = kTinyCapacity;
        m_truncated = analyse(m_large, QStringLiteral("large.bson"), tiny);
        QCOMPARE(m_truncated.status, CollectionProfile::Status::Complete);
        QCOMPARE(m_truncated.documents, std::uint64_t(m_large.size()));
    }

    void sizeThresholds_data()
    {
        QTest::addColumn<quint64>("threshold");
        const auto sizes = sizesDescending(m_docs);
        const std::uint64_t smallest = sizes.back();
        const std::uint64_t median = sizes[sizes.size() / 2];
        QTest::newRow("zero") << quint64(0);
        QTest::newRow("below the smallest") << quint64(smallest - 1);
        QTest::newRow("at the smallest") << quint64(smallest);
        QTest::newRow("at the median") << quint64(median);
        QTest::newRow("one above the median") << quint64(median + 1);
        QTest::newRow("at the 5th largest") << quint64(sizes[4]);
        QTest::newRow("one below the largest") << quint64(sizes[0] - 1);
        QTest::newRow("at the largest") << quint64(sizes[0]);
        QTest::newRow("far above") << quint64(sizes[0] * 10);
    }
    void sizeThresholds()
    {
        QFETCH(quint64, threshold);
        const ThresholdImpact impact = ThresholdImpact::forSize(m_profile, threshold);
        const std::uint64_t expected = countSizesAbove(m_docs, double(threshold));
        QVERIFY(impact.exact);
        QCOMPARE(impact.threshold, threshold);
        QCOMPARE(impact.documentsOver, expected);
        QCOMPARE(impact.share, double(expected) / double(m_docs.size()));
    }

    void arrayThresholds_data()
    {
        QTest::addColumn<quint64>("keep");
        QTest::newRow("keep 0 moves every element") << quint64(0);
        QTest::newRow("keep 1") << quint64(1);
        QTest::newRow("just below the shortest") << quint64(4);
        QTest::newRow("at the shortest") << quint64(5);
        QTest::newRow("at a common length") << quint64(14);
        QTest::newRow("at the longest ordinary") << quint64(24);
        QTest::newRow("just above the ordinary") << quint64(25);
        QTest::newRow("one below an outlier") << quint64(299);
        QTest::newRow("at an outlier") << quint64(300);
        QTest::newRow("between outliers") << quint64(700);
        QTest::newRow("one below the longest") << quint64(899);
        QTest::newRow("at the longest") << quint64(900);
        QTest::newRow("above everything") << quint64(5000);
    }
    void arrayThresholds()
    {
        QFETCH(quint64, keep);
        const FieldProfile *items = m_profile.field("items");
        QVERIFY(items);
        const ThresholdImpact impact = ThresholdImpact::forArray(m_profile, *items, keep);
        const Expected e = expectedSplit(m_docs, keep);
        QVERIFY(impact.exact);
        QCOMPARE(impact.threshold, keep);
        QCOMPARE(impact.documentsOver, e.documentsOver);
        QCOMPARE(impact.elementsMoved, e.elementsMoved);
        QCOMPARE(impact.share, double(e.documentsOver) / double(m_docs.size()));

        // Bytes are estimated from the mean element size. Elements here take 7 to 9 bytes
        // (one- to three-digit keys), so per moved element the estimate is off by at most
        // 2 bytes, plus rounding once per document.
        const std::uint64_t perElementSpread = elementBytes(899) - elementBytes(0);
        const auto within = [](std::uint64_t value, std::uint64_t target, std::uint64_t slack) {
            return value + slack >= target && value <= target + slack;
        };
        QVERIFY2(within(impact.bytesMoved, e.bytesMoved,
                        perElementSpread * e.elementsMoved + e.documentsOver),
                 qPrintable(QStringLiteral("%1 vs %2").arg(impact.bytesMoved).arg(e.bytesMoved)));
        if (e.documentsOver == 0) {
            QCOMPARE(impact.elementsMoved, std::uint64_t(0));
            QCOMPARE(impact.bytesMoved, std::uint64_t(0));
        }
    }

    void meanElementSizeIsTheDataset()
    {
        const FieldProfile *items = m_profile.field("items");
        QVERIFY(items);
        std::uint64_t elements = 0;
        std::uint64_t bytes = 0;
        for (const auto &d : m_docs) {
            if (d.length > 0) {
                elements += std::uint64_t(d.length);
                bytes += movedBytes(d.length, 0);
            }
        }
        QCOMPARE(items->elementCount, elements);
        QCOMPARE(items->elementBytes, bytes);
        // With keep 0 every element moves, so the estimate is the exact total but for
        // rounding once per document.
        const ThresholdImpact all = ThresholdImpact::forArray(m_profile, *items, 0);
        QVERIFY(all.bytesMoved + all.documentsOver >= bytes &&
                all.bytesMoved <= bytes + all.documentsOver);
    }

    void recommendationCountsAreTheImpactAtItsKeep_data()
    {
        QTest::addColumn<quint64>("targetBytes");
        QTest::newRow("default target (the fence decides)")
            << quint64(SplitRecommendation::kDefaultTargetBytes);
        QTest::newRow("100 B target (the size decides)") << quint64(100);
    }
    void recommendationCountsAreTheImpactAtItsKeep()
    {
        QFETCH(quint64, targetBytes);
        for (const CollectionProfile *profile : {&m_profile, &m_truncated}) {
            const QList<Generated> &docs = profile == &m_profile ? m_docs : m_large;
            const auto recs = SplitRecommendation::recommend(*profile, targetBytes);
            const auto rec = std::find_if(recs.begin(), recs.end(),
                                          [](const auto &r) { return r.path == "items"; });
            QVERIFY(rec != recs.end());
            QVERIFY(rec->splittable);
            QVERIFY(rec->keep >= 1);
            const ThresholdImpact impact =
                ThresholdImpact::forArray(*profile, *profile->field("items"), rec->keep);
            QCOMPARE(rec->documentsOver, impact.documentsOver);
            QCOMPARE(rec->elementsMoved, impact.elementsMoved);
            QCOMPARE(rec->estimated, !impact.exact);
            if (impact.exact) {
                const Expected e = expectedSplit(docs, rec->keep);
                QCOMPARE(rec->documentsOver, e.documentsOver);
                QCOMPARE(rec->elementsMoved, e.elementsMoved);
            }
        }
        // On the exact set the outliers are what the fence catches.
        const auto recs = SplitRecommendation::recommend(m_profile, targetBytes);
        const auto rec =
            std::find_if(recs.begin(), recs.end(), [](const auto &r) { return r.path == "items"; });
        if (targetBytes == SplitRecommendation::kDefaultTargetBytes) {
            QVERIFY2(rec->keep >= 24 && rec->keep < 300, qPrintable(rec->explanation));
            QCOMPARE(rec->documentsOver, std::uint64_t(5));
        } else {
            QCOMPARE(rec->keep, rec->targetKeep);
            QVERIFY(rec->targetKeep < rec->fenceKeep);
        }
    }

    // With room for four candidates only, counts are exact exactly when the threshold is at
    // or above the largest value not kept (the fifth largest), and estimated otherwise.
    void truncatedSizeCountsAreEstimated_data()
    {
        QTest::addColumn<quint64>("threshold");
        const auto sizes = sizesDescending(m_large);
        QTest::newRow("zero") << quint64(0);
        for (double q : {0.1, 0.25, 0.5, 0.75, 0.9, 0.97})
            QTest::addRow("quantile %.2f", q)
                << quint64(sizes[std::size_t(double(sizes.size() - 1) * (1.0 - q))]);
        for (std::size_t rank : {5, 6, 8, 20})
            QTest::addRow("just below the %zu. largest", rank) << quint64(sizes[rank - 1] - 1);
        QTest::newRow("at the 5th largest") << quint64(sizes[4]);
        QTest::newRow("between the 5th and 4th largest") << quint64(sizes[3] - 1);
        QTest::newRow("at the largest") << quint64(sizes[0]);
    }
    void truncatedSizeCountsAreEstimated()
    {
        QFETCH(quint64, threshold);
        const auto sizes = sizesDescending(m_large);
        const ThresholdImpact impact = ThresholdImpact::forSize(m_truncated, threshold);
        const std::uint64_t truth = countSizesAbove(m_large, double(threshold));
        QCOMPARE(impact.exact, threshold >= sizes[kTinyCapacity]);
        if (impact.exact) {
            QCOMPARE(impact.documentsOver, truth);
        } else {
            const std::uint64_t low = countSizesAbove(m_large, double(threshold) * kSketchWidth);
            const std::uint64_t high = countSizesAbove(m_large, double(threshold) / kSketchWidth);
            QVERIFY2(impact.documentsOver >= low && impact.documentsOver <= high,
                     qPrintable(QStringLiteral("estimate %1, true %2, allowed %3..%4")
                                    .arg(impact.documentsOver)
                                    .arg(truth)
                                    .arg(low)
                                    .arg(high)));
        }
        QCOMPARE(impact.share, double(impact.documentsOver) / double(m_large.size()));
    }

    // A document that arrives once the short candidate list is full of larger ones is not
    // kept; the counts must then not claim to be exact for thresholds below it.
    void documentsPassedOverAreNotForgotten()
    {
        QList<Generated> docs;
        int id = 0;
        for (int i = 0; i < 4; ++i)
            docs << Generated{fixtures::documentWithArray(id++, 50), 50};
        // Enough to make the list compact down to its four best (capacity + 16).
        for (int i = 0; i < 20; ++i)
            docs << Generated{fixtures::documentWithArray(id++, 10), 10};
        docs << Generated{fixtures::documentWithArray(id++, 30), 30};
        for (int i = 0; i < 5; ++i)
            docs << Generated{fixtures::documentWithArray(id++, 10), 10};
        AnalysisOptions options;
        options.threads = 1; // one builder sees the documents in file order
        options.limits.largestDocumentsCapacity = kTinyCapacity;
        options.limits.longestArraysCapacity = kTinyCapacity;
        options.limits.perPathCapacity = kTinyCapacity;
        const CollectionProfile profile = analyse(docs, QStringLiteral("late.bson"), options);
        QCOMPARE(profile.documents, std::uint64_t(docs.size()));
        const FieldProfile *items = profile.field("items");
        QVERIFY(items);

        const std::uint64_t keep = 20; // between the fillers (10) and the late one (30)
        const ThresholdImpact arrays = ThresholdImpact::forArray(profile, *items, keep);
        const Expected e = expectedSplit(docs, keep);
        QCOMPARE(e.documentsOver, std::uint64_t(5));
        QVERIFY2(!arrays.exact || arrays.documentsOver == e.documentsOver,
                 qPrintable(QStringLiteral("claims exactly %1 documents over %2, there are %3")
                                .arg(arrays.documentsOver)
                                .arg(keep)
                                .arg(e.documentsOver)));
        QVERIFY(!arrays.exact);
        QCOMPARE(arrays.documentsOver, e.documentsOver); // below 2048 the sketch is exact
        QCOMPARE(arrays.elementsMoved, e.elementsMoved);

        const std::uint64_t threshold = docs[4].size(); // a filler's size
        const ThresholdImpact sizes = ThresholdImpact::forSize(profile, threshold);
        const std::uint64_t truth = countSizesAbove(docs, double(threshold));
        QCOMPARE(truth, std::uint64_t(5));
        QVERIFY2(!sizes.exact || sizes.documentsOver == truth,
                 qPrintable(QStringLiteral("claims exactly %1 documents over %2 B, there are %3")
                                .arg(sizes.documentsOver)
                                .arg(threshold)
                                .arg(truth)));
        QVERIFY(!sizes.exact);
        QCOMPARE(sizes.documentsOver, truth);
        // Above the late document the four kept are the whole answer again.
        QVERIFY(ThresholdImpact::forArray(profile, *items, 30).exact);
        QCOMPARE(ThresholdImpact::forArray(profile, *items, 30).documentsOver, std::uint64_t(4));
        QVERIFY(ThresholdImpact::forSize(profile, docs.back().size() + 200).exact);
    }

    void truncatedArrayCountsAreEstimated_data()
    {
        QTest::addColumn<quint64>("keep");
        const auto lengths = lengthsDescending(m_large);
        QTest::newRow("keep 0") << quint64(0);
        QTest::newRow("below the shortest") << quint64(lengths.back() - 1);
        for (double q : {0.1, 0.5, 0.9})
            QTest::addRow("quantile %.1f", q)
                << quint64(lengths[std::size_t(double(lengths.size() - 1) * (1.0 - q))]);
        QTest::newRow("2500") << quint64(2500);
        for (std::size_t rank : {5, 6, 10})
            QTest::addRow("just below the %zu. longest", rank) << quint64(lengths[rank - 1] - 1);
        QTest::newRow("at the 5th longest") << quint64(lengths[4]);
        QTest::newRow("at the longest") << quint64(lengths[0]);
    }
    void truncatedArrayCountsAreEstimated()
    {
        QFETCH(quint64, keep);
        const auto lengths = lengthsDescending(m_large);
        const FieldProfile *items = m_truncated.field("items");
        QVERIFY(items);
        const ThresholdImpact impact = ThresholdImpact::forArray(m_truncated, *items, keep);
        const Expected e = expectedSplit(m_large, keep);
        QCOMPARE(impact.exact, keep >= lengths[kTinyCapacity]);
        if (impact.exact) {
            QCOMPARE(impact.documentsOver, e.documentsOver);
            QCOMPARE(impact.elementsMoved, e.elementsMoved);
        } else {
            // Documents: only lengths within 1% of keep may be counted on the wrong side.
            std::uint64_t low = 0, high = 0, slack = 0;
            for (const auto &d : m_large) {
                const double length = double(d.length);
                low += length > double(keep) * kSketchWidth;
                high += length > double(keep) / kSketchWidth;
                // A document counted at its bucket's middle is off by at most half a bucket
                // (0.5%) plus one; count 1% for every document that may be counted at all.
                if (length > double(keep) / kSketchWidth)
                    slack += std::uint64_t(std::ceil(length * 0.01)) + 1;
            }
            QVERIFY2(impact.documentsOver >= low && impact.documentsOver <= high,
                     qPrintable(QStringLiteral("estimate %1, true %2, allowed %3..%4")
                                    .arg(impact.documentsOver)
                                    .arg(e.documentsOver)
                                    .arg(low)
                                    .arg(high)));
            QVERIFY2(impact.elementsMoved + slack >= e.elementsMoved &&
                         impact.elementsMoved <= e.elementsMoved + slack,
                     qPrintable(QStringLiteral("estimate %1, true %2, slack %3")
                                    .arg(impact.elementsMoved)
                                    .arg(e.elementsMoved)
                                    .arg(slack)));
        }
    }
};

QTEST_APPLESS_MAIN(TestThresholdImpact)
#include "tst_thresholdimpact.moc"
