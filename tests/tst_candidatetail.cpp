// Unit tests for CandidateTail: the bounded "largest values" list whose results must not
// depend on scan order or thread scheduling. Every expectation comes from an exact sort of
// everything that was offered.

#include "TailOffers.h"

#include "stats/CandidateTail.h"

#include <QTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace oe;
using namespace fixtures;

class TestCandidateTail : public QObject
{
    Q_OBJECT

private slots:
    void keepsLargest_data();
    void keepsLargest();
    void tiesBrokenByDocIndex();
    void keepAboveIgnoresCapacity_data();
    void keepAboveIgnoresCapacity();
    void completeAboveBoundary_data();
    void completeAboveBoundary();
    void completeAboveSimpleCases();
    void wantsAgreesWithOffer_data();
    void wantsAgreesWithOffer();
    void mergeEqualsSingleTail_data();
    void mergeEqualsSingleTail();
    void aboveSortedAndFiltered_data();
    void aboveSortedAndFiltered();
    void largestIsPrefixOfSorted();
    void zeroNeverKept();
};

void TestCandidateTail::keepsLargest_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("capacity");
    for (const char *kind : kKinds)
        for (int capacity : {0, 1, 10, 100, 100000})
            QTest::addRow("%s cap %d", kind, capacity) << QString::fromLatin1(kind) << capacity;
}

void TestCandidateTail::keepsLargest()
{
    QFETCH(QString, kind);
    QFETCH(int, capacity);
    const Offers offers = makeOffers(kind);
    const CandidateTail tail = tailOf(offers, std::size_t(capacity), CandidateTail::kNoThreshold);
    const Offers expected =
        expectedRetained(offers, std::size_t(capacity), CandidateTail::kNoThreshold);

    QCOMPARE(tail.capacity(), std::size_t(capacity));
    QCOMPARE(tail.keepAbove(), CandidateTail::kNoThreshold);
    QCOMPARE(tail.size(), expected.size());
    compareList(tail.sorted(), expected);
}

void TestCandidateTail::tiesBrokenByDocIndex()
{
    // Five equal values offered in every rotation: the earliest documents win.
    for (std::uint64_t start = 0; start < 5; ++start) {
        CandidateTail tail(3);
        for (std::uint64_t i = 0; i < 5; ++i)
            tail.offer(candidateFor({42, (start + i) % 5}));
        const auto s = tail.sorted();
        QCOMPARE(s.size(), std::size_t(3));
        for (std::uint64_t i = 0; i < 3; ++i) {
            QCOMPARE(s[i].value, std::uint64_t(42));
            QCOMPARE(s[i].docIndex, i);
        }
        QVERIFY(!tail.isCompleteAbove(41));
        QVERIFY(tail.isCompleteAbove(42));
    }
    // A larger value always beats an earlier document.
    CandidateTail tail(2);
    tail.offer(candidateFor({5, 0}));
    tail.offer(candidateFor({5, 1}));
    tail.offer(candidateFor({6, 9}));
    const auto s = tail.sorted();
    QCOMPARE(s.size(), std::size_t(2));
    QCOMPARE(s[0].docIndex, std::uint64_t(9));
    QCOMPARE(s[1].docIndex, std::uint64_t(0));
}

void TestCandidateTail::keepAboveIgnoresCapacity_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<quint64>("keepAbove");
    QTest::newRow("random distinct, 40% above")
        << QStringLiteral("random distinct") << 10 << quint64(66'600);
    QTest::newRow("random distinct, cap 0")
        << QStringLiteral("random distinct") << 0 << quint64(100'000);
    QTest::newRow("many ties, above 4") << QStringLiteral("many ties") << 5 << quint64(4);
    QTest::newRow("doc sizes, above 64 KiB")
        << QStringLiteral("doc sizes") << 50 << quint64(65'536);
    QTest::newRow("with zeros, above 0") << QStringLiteral("with zeros") << 3 << quint64(0);
}

void TestCandidateTail::keepAboveIgnoresCapacity()
{
    QFETCH(QString, kind);
    QFETCH(int, capacity);
    QFETCH(quint64, keepAbove);
    const Offers offers = makeOffers(kind);
    const CandidateTail tail = tailOf(offers, std::size_t(capacity), keepAbove);
    const Offers expected = expectedRetained(offers, std::size_t(capacity), keepAbove);

    const auto aboveCount = std::count_if(
        offers.begin(), offers.end(), [keepAbove](const Offer &o) { return o.value > keepAbove; });
    QVERIFY(aboveCount > capacity); // the case is meaningful: more above than capacity
    QCOMPARE(tail.keepAbove(), std::uint64_t(keepAbove));
    compareList(tail.sorted(), expected);
    // Everything above keepAbove is there, so the list above it is exact.
    QVERIFY(tail.isCompleteAbove(keepAbove));
    QCOMPARE(tail.above(keepAbove).size(), std::size_t(aboveCount));
}

void TestCandidateTail::completeAboveBoundary_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<quint64>("keepAbove");
    for (const char *kind : kKinds)
        for (int capacity : {0, 1, 7, 250})
            QTest::addRow("%s cap %d", kind, capacity)
                << QString::fromLatin1(kind) << capacity << quint64(CandidateTail::kNoThreshold);
    QTest::newRow("doc sizes cap 20 keepAbove 100k")
        << QStringLiteral("doc sizes") << 20 << quint64(100'000);
    QTest::newRow("many ties cap 3 keepAbove 5") << QStringLiteral("many ties") << 3 << quint64(5);
}

void TestCandidateTail::completeAboveBoundary()
{
    // isCompleteAbove(t) is true exactly when every offered value > t was retained; probed at
    // every distinct value and on both sides of it.
    QFETCH(QString, kind);
    QFETCH(int, capacity);
    QFETCH(quint64, keepAbove);
    const Offers offers = makeOffers(kind);
    const CandidateTail tail = tailOf(offers, std::size_t(capacity), keepAbove);
    const Offers retained = expectedRetained(offers, std::size_t(capacity), keepAbove);

    // The boundary: the largest value that was not retained.
    std::uint64_t largestDropped = 0;
    bool anyDropped = false;
    for (const Offer &o : offers) {
        const bool kept = std::any_of(retained.begin(), retained.end(),
                                      [&o](const Offer &r) { return r.docIndex == o.docIndex; });
        if (!kept && o.value > 0) {
            anyDropped = true;
            largestDropped = std::max(largestDropped, o.value);
        }
    }
    if (anyDropped) {
        QVERIFY(!tail.isCompleteAbove(largestDropped - 1));
        QVERIFY(tail.isCompleteAbove(largestDropped));
    }
    QVERIFY(tail.isCompleteAbove(CandidateTail::kNoThreshold));

    // Brute force at every interesting threshold (sampled for the large streams).
    const auto thresholds = probeThresholds(offers);
    const std::size_t step = std::max<std::size_t>(1, thresholds.size() / 400);
    for (std::size_t i = 0; i < thresholds.size(); i += step) {
        const std::uint64_t t = thresholds[i];
        QVERIFY2(tail.isCompleteAbove(t) == expectedCompleteAbove(offers, retained, t),
                 qPrintable(QStringLiteral("threshold %1").arg(t)));
    }
    for (std::uint64_t t : {largestDropped, largestDropped + 1, largestDropped - 1})
        QCOMPARE(tail.isCompleteAbove(t), expectedCompleteAbove(offers, retained, t));
}

void TestCandidateTail::completeAboveSimpleCases()
{
    // Nothing offered, or everything fitting: complete everywhere.
    CandidateTail empty(4);
    QVERIFY(empty.isCompleteAbove(0));
    CandidateTail roomy(10);
    for (std::uint64_t i = 0; i < 10; ++i)
        roomy.offer(candidateFor({100 + i, i}));
    QVERIFY(roomy.isCompleteAbove(0));

    // [10, 9, 9, 9] with room for 2: keeps 10 and the first 9; drops two 9s.
    CandidateTail tail(2);
    for (const Offer &o : Offers{{10, 0}, {9, 1}, {9, 2}, {9, 3}})
        tail.offer(candidateFor(o));
    QVERIFY(!tail.isCompleteAbove(8));
    QVERIFY(tail.isCompleteAbove(9));
    QVERIFY(tail.isCompleteAbove(10));
    QCOMPARE(tail.above(8).size(), std::size_t(2));
    QCOMPARE(tail.above(9).size(), std::size_t(1));

    // An early small value evicted by later large ones also counts as dropped.
    CandidateTail evict(1);
    evict.offer(candidateFor({5, 0}));
    QVERIFY(evict.isCompleteAbove(0));
    evict.offer(candidateFor({50, 1}));
    QVERIFY(!evict.isCompleteAbove(4));
    QVERIFY(evict.isCompleteAbove(5));
}

void TestCandidateTail::wantsAgreesWithOffer_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<quint64>("keepAbove");
    for (const char *kind : {"random distinct", "random wide", "many ties", "with zeros",
                             "ascending", "descending", "all zeros"}) {
        QTest::addRow("%s cap 0", kind)
            << QString::fromLatin1(kind) << 0 << quint64(CandidateTail::kNoThreshold);
        QTest::addRow("%s cap 1", kind)
            << QString::fromLatin1(kind) << 1 << quint64(CandidateTail::kNoThreshold);
        QTest::addRow("%s cap 40", kind)
            << QString::fromLatin1(kind) << 40 << quint64(CandidateTail::kNoThreshold);
        QTest::addRow("%s cap 8 keepAbove 300", kind)
            << QString::fromLatin1(kind) << 8 << quint64(300);
    }
}

void TestCandidateTail::wantsAgreesWithOffer()
{
    // Before each offer, wants() predicts whether the candidate ends up retained.
    QFETCH(QString, kind);
    QFETCH(int, capacity);
    QFETCH(quint64, keepAbove);
    Offers offers = makeOffers(kind);
    if (offers.size() > 2000)
        offers.resize(2000);
    CandidateTail tail(std::size_t(capacity), keepAbove);
    int wanted = 0;
    for (const Offer &o : offers) {
        const bool wants = tail.wants(o.value, o.docIndex);
        const std::size_t before = tail.size();
        tail.offer(candidateFor(o));
        const auto s = tail.sorted();
        const bool retained = std::any_of(
            s.begin(), s.end(), [&o](const TailCandidate &c) { return c.docIndex == o.docIndex; });
        QVERIFY2(wants == retained,
                 qPrintable(QStringLiteral("value %1 doc %2: wants %3, retained %4")
                                .arg(o.value)
                                .arg(o.docIndex)
                                .arg(wants)
                                .arg(retained)));
        // Retaining never shrinks the tail; rejecting leaves it unchanged.
        if (!retained)
            QCOMPARE(tail.size(), before);
        wanted += wants;
    }
    // And the outcome is the exact reference.
    compareList(tail.sorted(), expectedRetained(offers, std::size_t(capacity), keepAbove));
    if (kind == QLatin1String("all zeros"))
        QCOMPARE(wanted, 0);
}

void TestCandidateTail::mergeEqualsSingleTail_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<quint64>("keepAbove");
    QTest::addColumn<int>("parts");
    QTest::addColumn<bool>("interleaved");
    for (const char *kind : kKinds) {
        QTest::addRow("%s cap 25, 2 interleaved", kind)
            << QString::fromLatin1(kind) << 25 << quint64(CandidateTail::kNoThreshold) << 2 << true;
        QTest::addRow("%s cap 25, 2 halves", kind)
            << QString::fromLatin1(kind) << 25 << quint64(CandidateTail::kNoThreshold) << 2
            << false;
        QTest::addRow("%s cap 1, 4 interleaved", kind)
            << QString::fromLatin1(kind) << 1 << quint64(CandidateTail::kNoThreshold) << 4 << true;
        QTest::addRow("%s cap 7 keepAbove 200, 3 interleaved", kind)
            << QString::fromLatin1(kind) << 7 << quint64(200) << 3 << true;
        QTest::addRow("%s cap 0 keepAbove 400, 2 interleaved", kind)
            << QString::fromLatin1(kind) << 0 << quint64(400) << 2 << true;
    }
}

void TestCandidateTail::mergeEqualsSingleTail()
{
    // Workers each see part of the scan; merging their tails in any order must equal a single
    // tail over everything: same list, same completeness at every threshold.
    QFETCH(QString, kind);
    QFETCH(int, capacity);
    QFETCH(quint64, keepAbove);
    QFETCH(int, parts);
    QFETCH(bool, interleaved);
    const Offers offers = makeOffers(kind);
    const CandidateTail single = tailOf(offers, std::size_t(capacity), keepAbove);

    std::vector<Offers> split(static_cast<std::size_t>(parts));
    for (std::size_t i = 0; i < offers.size(); ++i) {
        const std::size_t part =
            interleaved ? i % std::size_t(parts) : i * std::size_t(parts) / offers.size();
        split[part].push_back(offers[i]);
    }

    for (bool reverse : {false, true}) {
        std::vector<CandidateTail> tails;
        for (const Offers &part : split)
            tails.push_back(tailOf(part, std::size_t(capacity), keepAbove));
        if (reverse)
            std::reverse(tails.begin(), tails.end());
        CandidateTail merged = std::move(tails.front());
        for (std::size_t i = 1; i < tails.size(); ++i)
            merged.merge(std::move(tails[i]));

        compareList(merged.sorted(), expectedRetained(offers, std::size_t(capacity), keepAbove));
        const auto a = merged.sorted();
        const auto b = single.sorted();
        QCOMPARE(a.size(), b.size());
        for (std::size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].docIndex, b[i].docIndex);
            QCOMPARE(a[i].value, b[i].value);
            QCOMPARE(a[i].rawId, b[i].rawId);
        }
        QCOMPARE(merged.size(), single.size());
        for (std::uint64_t t : probeThresholds(offers))
            QVERIFY2(merged.isCompleteAbove(t) == single.isCompleteAbove(t),
                     qPrintable(QStringLiteral("threshold %1").arg(t)));
    }
}

void TestCandidateTail::aboveSortedAndFiltered_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<quint64>("keepAbove");
    for (const char *kind : kKinds) {
        QTest::addRow("%s cap 60", kind)
            << QString::fromLatin1(kind) << 60 << quint64(CandidateTail::kNoThreshold);
        QTest::addRow("%s cap 5 keepAbove 100", kind)
            << QString::fromLatin1(kind) << 5 << quint64(100);
    }
}

void TestCandidateTail::aboveSortedAndFiltered()
{
    QFETCH(QString, kind);
    QFETCH(int, capacity);
    QFETCH(quint64, keepAbove);
    const Offers offers = makeOffers(kind);
    const CandidateTail tail = tailOf(offers, std::size_t(capacity), keepAbove);
    const Offers retained = expectedRetained(offers, std::size_t(capacity), keepAbove);

    const auto thresholds = probeThresholds(offers);
    const std::size_t step = std::max<std::size_t>(1, thresholds.size() / 200);
    for (std::size_t i = 0; i < thresholds.size(); i += step) {
        const std::uint64_t t = thresholds[i];
        Offers expected;
        for (const Offer &o : retained)
            if (o.value > t)
                expected.push_back(o);
        const auto above = tail.above(t);
        compareList(above, expected); // largest first, ties by docIndex, only values > t
        for (std::size_t j = 0; j < above.size(); ++j) {
            QVERIFY(above[j].value > t);
            if (j > 0)
                QVERIFY(above[j - 1].value > above[j].value ||
                        (above[j - 1].value == above[j].value &&
                         above[j - 1].docIndex < above[j].docIndex));
        }
    }
    QVERIFY(tail.above(CandidateTail::kNoThreshold).empty());
    QCOMPARE(tail.above(0).size(), tail.size());
}

void TestCandidateTail::largestIsPrefixOfSorted()
{
    // largest(k): the k best retained candidates, in the same order as sorted().
    for (const char *kind : kKinds) {
        const Offers offers = makeOffers(QString::fromLatin1(kind));
        const CandidateTail tail = tailOf(offers, 50, 300);
        const Offers retained = expectedRetained(offers, 50, 300);
        for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(50),
                              retained.size(), retained.size() + 10}) {
            const Offers expected(retained.begin(),
                                  retained.begin() + std::ptrdiff_t(std::min(k, retained.size())));
            compareList(tail.largest(k), expected);
        }
    }
}

void TestCandidateTail::zeroNeverKept()
{
    for (std::uint64_t keepAbove :
         {std::uint64_t(0), std::uint64_t(5), CandidateTail::kNoThreshold}) {
        CandidateTail tail(100, keepAbove);
        QVERIFY(!tail.wants(0, 0));
        tail.offer(candidateFor({0, 0}));
        tail.offer(candidateFor({0, 1}));
        QCOMPARE(tail.size(), std::size_t(0));
        QVERIFY(tail.sorted().empty());
        QVERIFY(tail.isCompleteAbove(0)); // no value > 0 was offered
        tail.offer(candidateFor({3, 2}));
        tail.offer(candidateFor({0, 3}));
        QVERIFY(!tail.wants(0, 4));
        const auto s = tail.sorted();
        QCOMPARE(s.size(), std::size_t(1));
        QCOMPARE(s[0].value, std::uint64_t(3));
        QCOMPARE(s[0].docIndex, std::uint64_t(2));
    }
    // Zeros do not occupy capacity either.
    CandidateTail small(1);
    small.offer(candidateFor({0, 0}));
    QVERIFY(small.wants(1, 1));
    small.offer(candidateFor({1, 1}));
    QCOMPARE(small.size(), std::size_t(1));
    QVERIFY(small.isCompleteAbove(0));
}

QTEST_APPLESS_MAIN(TestCandidateTail)
#include "tst_candidatetail.moc"
