#include "BsonFixtures.h"
#include "analysis/OutlierDetector.h"
#include "analysis/ProfileBuilder.h"
#include "analysis/SplitRecommendation.h"

#include <QDir>
#include <QTest>

#include <random>
#include <set>

using namespace oe;

class TestOutlierDetector : public QObject
{
    Q_OBJECT

    // 1,000 documents: arrays of 5..20 elements, with planted outliers at known positions.
    QList<QByteArray> m_docs;
    std::set<std::uint64_t> m_planted = {17, 333, 640, 901};

    CollectionProfile profile(const DetectionOptions &detection, ProfileBuilder::Limits limits = {})
    {
        OutlierDetector::prepareScan(detection, limits.keepDocumentsLargerThan,
                                     limits.keepArraysLongerThan);
        ProfileBuilder builder(limits);
        for (int i = 0; i < m_docs.size(); ++i)
            builder.addDocument(reinterpret_cast<const std::uint8_t *>(m_docs[i].constData()),
                                std::uint32_t(m_docs[i].size()), std::uint64_t(i), nullptr);
        return builder.takeProfile();
    }
    static std::set<std::uint64_t> docsWithReason(const OutlierReport &r, const QString &prefix)
    {
        std::set<std::uint64_t> out;
        for (const auto &row : r.rows)
            if (row.reason.startsWith(prefix))
                out.insert(row.docIndex);
        return out;
    }

private slots:
    void initTestCase()
    {
        std::mt19937_64 rng(3);
        for (int i = 0; i < 1000; ++i) {
            int length = 5 + int(rng() % 16);
            if (m_planted.count(std::uint64_t(i)))
                length = 2000 + i;
            m_docs << fixtures::documentWithArray(i, length);
        }
    }

    void absoluteThresholdsAreExact_data()
    {
        QTest::addColumn<int>("arrayThreshold");
        QTest::newRow("10") << 10;
        QTest::newRow("15") << 15;
        QTest::newRow("19") << 19;
        QTest::newRow("2500") << 2500;
    }
    void absoluteThresholdsAreExact()
    {
        QFETCH(int, arrayThreshold);
        DetectionOptions options;
        options.arrayThreshold = std::uint64_t(arrayThreshold);
        // Tiny capacities: exactness must come from keepAbove, not from luck.
        ProfileBuilder::Limits limits;
        limits.longestArraysCapacity = 3;
        limits.largestDocumentsCapacity = 3;
        limits.perPathCapacity = 3;
        const auto p = profile(options, limits);
        const auto report = OutlierDetector::detect(p, options);
        std::set<std::uint64_t> expected;
        // Reference: count elements by re-reading with the fixture helper.
        const QString tmp = QDir::temp().filePath(QStringLiteral("oe_detector_ref.bson"));
        QVERIFY(fixtures::writeFile(tmp, fixtures::concat(m_docs)));
        const auto refs = fixtures::readReference(tmp);
        for (int i = 0; i < refs.size(); ++i)
            if (refs[i].longestArrayLength > std::uint32_t(arrayThreshold))
                expected.insert(std::uint64_t(i));
        QCOMPARE(docsWithReason(report, QStringLiteral("array_absolute")), expected);
        for (const auto &row : report.rows) {
            if (row.reason == QLatin1String("array_absolute")) {
                QCOMPARE(row.path, QStringLiteral("items"));
                QCOMPARE(row.arrayLength,
                         std::uint64_t(refs[int(row.docIndex)].longestArrayLength));
                QCOMPARE(row.id, refs[int(row.docIndex)].id);
            }
        }
        // Sizes use the statistical default here and may be truncated at capacity 3; the
        // array list must not be.
        QVERIFY2(!report.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("array")),
                 qPrintable(report.warnings.join(QLatin1Char(' '))));
    }

    void sizeThresholdIsExact()
    {
        DetectionOptions options;
        const std::uint64_t threshold = 200;
        options.sizeThreshold = threshold;
        ProfileBuilder::Limits limits;
        limits.largestDocumentsCapacity = 2;
        const auto report = OutlierDetector::detect(profile(options, limits), options);
        std::set<std::uint64_t> expected;
        for (int i = 0; i < m_docs.size(); ++i)
            if (std::uint64_t(m_docs[i].size()) > threshold)
                expected.insert(std::uint64_t(i));
        QVERIFY(!expected.empty());
        QCOMPARE(docsWithReason(report, QStringLiteral("size_absolute")), expected);
        QCOMPARE(report.size.value, threshold);
    }

    void statisticalMethodsFindThePlantedOutliers_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("iqr") << int(OutlierMethod::Iqr);
        QTest::newRow("mad") << int(OutlierMethod::Mad);
    }
    void statisticalMethodsFindThePlantedOutliers()
    {
        QFETCH(int, method);
        DetectionOptions options;
        options.method = OutlierMethod(method);
        const auto report = OutlierDetector::detect(profile(options), options);
        QCOMPARE(docsWithReason(report, QStringLiteral("array_")), m_planted);
        QCOMPARE(docsWithReason(report, QStringLiteral("size_")), m_planted);
        QCOMPARE(report.outlierDocuments, std::uint64_t(m_planted.size()));
        QVERIFY(report.arrayPerPath.count("items"));
    }

    void percentileFlagsTheTopPercent()
    {
        DetectionOptions options;
        options.method = OutlierMethod::Percentile;
        options.parameters.percentile = 99.0;
        const auto p = profile(options);
        const auto report = OutlierDetector::detect(p, options);
        const auto flagged = docsWithReason(report, QStringLiteral("size_percentile"));
        // Nearest-rank p99 of 1,000 values: at most 10 values lie above it.
        QVERIFY(flagged.size() <= 10);
        for (auto planted : m_planted)
            QVERIFY(flagged.count(planted));
        for (const auto &row : report.rows)
            if (row.reason == QLatin1String("size_percentile"))
                QVERIFY(row.bsonSize > report.size.value);
    }

    void percentileOfLargeValuesIsExactFromTheTail()
    {
        // 10,000 documents of 2-20 KiB (inside the sketch's 1% buckets) and 5 larger ones:
        // "above p99.95" must flag exactly the documents ranked above the nearest rank.
        std::mt19937_64 rng(11);
        QList<QByteArray> docs;
        for (int i = 0; i < 10000; ++i)
            docs << fixtures::documentOfSize(i, 2048 + int(rng() % 18432));
        for (int i = 0; i < 5; ++i)
            docs << fixtures::documentOfSize(10000 + i, 30000 + 1000 * i);
        ProfileBuilder builder;
        for (int i = 0; i < docs.size(); ++i)
            builder.addDocument(reinterpret_cast<const std::uint8_t *>(docs[i].constData()),
                                std::uint32_t(docs[i].size()), std::uint64_t(i), nullptr);
        DetectionOptions options;
        options.method = OutlierMethod::Percentile;
        for (double p : {99.95, 99.5, 90.0}) {
            options.parameters.percentile = p;
            const auto report = OutlierDetector::detect(builder.takeProfile(), options);
            std::vector<std::uint64_t> sizes;
            for (const auto &d : docs)
                sizes.push_back(std::uint64_t(d.size()));
            std::sort(sizes.begin(), sizes.end());
            const std::uint64_t rank =
                std::uint64_t(std::ceil(p / 100.0 * double(sizes.size()) - 1e-9));
            const std::uint64_t exact = sizes[rank - 1];
            QCOMPARE(report.size.value, exact);
            const auto above = std::count_if(sizes.begin(), sizes.end(),
                                             [&](std::uint64_t s) { return s > exact; });
            QCOMPARE(qint64(report.sizeOutliers), qint64(above));
            // takeProfile() empties the builder: rebuild for the next percentile.
            for (int i = 0; i < docs.size(); ++i)
                builder.addDocument(reinterpret_cast<const std::uint8_t *>(docs[i].constData()),
                                    std::uint32_t(docs[i].size()), std::uint64_t(i), nullptr);
        }
    }

    void documentsNearTheLimitAreAlwaysFlagged()
    {
        QList<QByteArray> docs = {fixtures::documentOfSize(1, 1000),
                                  fixtures::documentOfSize(2, 9 * 1024 * 1024),
                                  fixtures::documentOfSize(3, 17 * 1024 * 1024)};
        ProfileBuilder builder;
        for (int i = 0; i < docs.size(); ++i)
            builder.addDocument(reinterpret_cast<const std::uint8_t *>(docs[i].constData()),
                                std::uint32_t(docs[i].size()), std::uint64_t(i), nullptr);
        DetectionOptions options;
        options.sizeThreshold = 100 * 1024 * 1024; // far above everything
        const auto report = OutlierDetector::detect(builder.takeProfile(), options);
        QCOMPARE(docsWithReason(report, QStringLiteral("size_over_half_limit")),
                 (std::set<std::uint64_t>{1}));
        QCOMPARE(docsWithReason(report, QStringLiteral("size_over_limit")),
                 (std::set<std::uint64_t>{2}));
        QCOMPARE(report.sizeOutliers, 0u);
    }

    void truncationIsReportedNotHidden()
    {
        DetectionOptions options;
        options.method = OutlierMethod::Percentile;
        options.parameters.percentile = 50.0; // half the documents
        ProfileBuilder::Limits limits;
        limits.largestDocumentsCapacity = 10;
        const auto report = OutlierDetector::detect(profile(options, limits), options);
        QVERIFY(!report.warnings.isEmpty());
        QVERIFY(
            report.warnings.join(QLatin1Char(' ')).contains(QStringLiteral("only the 10 largest")));
    }

    void recommendationExplainsBothBounds()
    {
        DetectionOptions options;
        const auto p = profile(options);
        const auto recs = SplitRecommendation::recommend(p, 100); // 100-byte primary: tight
        QCOMPARE(recs.size(), std::size_t(1));
        const auto &r = recs.front();
        QCOMPARE(r.path, std::string("items"));
        QVERIFY(r.splittable);
        QVERIFY(r.meanElementBytes >= 7.0 &&
                r.meanElementBytes <= 10.0); // int32: type + "N\\0" key + 4
        QCOMPARE(r.targetKeep, std::uint64_t(100.0 / r.meanElementBytes));
        QCOMPARE(r.keep, std::min(r.fenceKeep, r.targetKeep));
        QVERIFY(r.explanation.contains(QStringLiteral("fence")));
        // Documents over `keep` and elements moved, against a direct count.
        std::uint64_t over = 0, moved = 0;
        const QString tmp = QDir::temp().filePath(QStringLiteral("oe_rec_ref.bson"));
        QVERIFY(fixtures::writeFile(tmp, fixtures::concat(m_docs)));
        for (const auto &ref : fixtures::readReference(tmp)) {
            if (ref.longestArrayLength > r.keep) {
                ++over;
                moved += ref.longestArrayLength - r.keep;
            }
        }
        QCOMPARE(r.documentsOver, over);
        QCOMPARE(r.elementsMoved, moved);
    }
};

QTEST_GUILESS_MAIN(TestOutlierDetector)
#include "tst_outlierdetector.moc"
