// Unit tests for TailFence: a tail counted in the cluster (ServerTally) is offered only the
// documents its fence lets through and told the first value it passed over; it must equal a
// tail offered every document (TailOffers' streams), list and completeness.

#include "TailOffers.h"

#include "stats/CandidateTail.h"
#include "stats/TailFence.h"

#include <QTest>

using namespace oe;
using namespace fixtures;

class TestTailFence : public QObject
{
    Q_OBJECT

private slots:
    void fencedOffersEqualEveryOffer_data();
    void fencedOffersEqualEveryOffer();
};

void TestTailFence::fencedOffersEqualEveryOffer_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<quint64>("keepAbove");
    for (const char *kind : kKinds) {
        for (int capacity : {0, 1, 7, 25, 100000})
            QTest::addRow("%s cap %d", kind, capacity)
                << QString::fromLatin1(kind) << capacity << quint64(CandidateTail::kNoThreshold);
        QTest::addRow("%s cap 7 keepAbove 200", kind)
            << QString::fromLatin1(kind) << 7 << quint64(200);
        QTest::addRow("%s cap 0 keepAbove 400", kind)
            << QString::fromLatin1(kind) << 0 << quint64(400);
    }
}

void TestTailFence::fencedOffersEqualEveryOffer()
{
    // Counted in the cluster (ServerTally), a tail is offered only the documents its fence lets
    // through (TailFence: above its last place's value, the first `tied` at it by position,
    // every one above keepAbove) and told the first value it passed over: it must equal a tail
    // offered every document, list and completeness at every threshold.
    QFETCH(QString, kind);
    QFETCH(int, capacity);
    QFETCH(quint64, keepAbove);
    const Offers offers = makeOffers(kind);
    const CandidateTail every = tailOf(offers, std::size_t(capacity), keepAbove);

    TailFence fence(std::uint64_t(capacity), keepAbove);
    for (const Offer &o : offers)
        fence.count(o.value, 1);
    CandidateTail fenced(std::size_t(capacity), keepAbove);
    std::uint64_t tied = 0, sent = 0;
    for (const Offer &o : offers) { // in position order, as the server's lists
        const bool at = o.value == fence.atLeast() && tied < fence.tied();
        if (o.value == 0 || (o.value < fence.atLeast()) ||
            (o.value == fence.atLeast() && !at && o.value <= keepAbove))
            continue;
        tied += at ? 1 : 0;
        ++sent;
        fenced.offer(candidateFor(o));
    }
    if (const auto over = fence.passOver())
        fenced.passOver(*over);
    // The fence lets through no more than the tail keeps.
    QVERIFY(sent <= std::uint64_t(capacity) + fence.kept());
    const auto a = fenced.sorted();
    const auto b = every.sorted();
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].docIndex, b[i].docIndex);
        QCOMPARE(a[i].value, b[i].value);
    }
    for (std::uint64_t t : probeThresholds(offers))
        QVERIFY2(fenced.isCompleteAbove(t) == every.isCompleteAbove(t),
                 qPrintable(QStringLiteral("threshold %1").arg(t)));
}

QTEST_GUILESS_MAIN(TestTailFence)
#include "tst_tailfence.moc"
