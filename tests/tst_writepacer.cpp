#include "mongo/WritePacer.h"

#include <QTest>

using namespace oe;

// The pacer behind CollectionOps::bulk: commands shrink after a slow one, aiming at the
// target duration, never below one document, and grow back (doubling) after fast ones.
// The figures below are for a target of 5 s; s() scales them to the real one.
static double s(double seconds)
{
    static_assert(WritePacer::kSlowSeconds == 2 * WritePacer::kTargetSeconds);
    return seconds * WritePacer::kTargetSeconds / 5.0;
}

class TestWritePacer : public QObject
{
    Q_OBJECT

private slots:
    void startsSmallAndDoublesUpToTheMaximum()
    {
        WritePacer p;
        QCOMPARE(p.perCommand(), WritePacer::kInitial);
        p.record(0, s(500.0)); // nothing written: nothing learnt
        QCOMPARE(p.perCommand(), WritePacer::kInitial);
        p.record(10, s(0.2));
        QCOMPARE(p.perCommand(), std::size_t(20));
        p.record(20, s(0.2));
        QCOMPARE(p.perCommand(), std::size_t(40));
        p.record(40, s(0.2));
        QCOMPARE(p.perCommand(), WritePacer::kMax);
        p.record(50, s(0.2)); // fast, already at the maximum
        QCOMPARE(p.perCommand(), WritePacer::kMax);
    }

    void aSlowCommandShrinksTheNextToTheTarget()
    {
        WritePacer p;
        while (p.perCommand() < WritePacer::kMax)
            p.record(p.perCommand(), s(0.1));
        p.record(50, s(40.0)); // 0.8 s per document: 5 s is 6 documents
        QCOMPARE(p.perCommand(), std::size_t(6));
        p.record(6, s(8.0)); // over half the target, not slow: unchanged
        QCOMPARE(p.perCommand(), std::size_t(6));
        p.record(6, s(300.0)); // 50 s per document: one at a time
        QCOMPARE(p.perCommand(), std::size_t(1));
    }

    void onlyShrinksOnSlowCommands()
    {
        WritePacer p;
        p.record(10, s(8.0)); // over half the target, not slow: unchanged
        QCOMPARE(p.perCommand(), WritePacer::kInitial);
        p.record(10, s(40.0)); // 4 s per document
        QCOMPARE(p.perCommand(), std::size_t(1));
        p.record(1, s(0.5));
        p.record(2, s(0.5));
        p.record(4, s(0.5));
        QCOMPARE(p.perCommand(), std::size_t(8));
        p.record(8, s(12.0)); // 1.5 s per document: 3 in 5 s
        QCOMPARE(p.perCommand(), std::size_t(3));
        // A slow command that wrote few documents (a statement alone) must not raise it.
        p.record(2, s(11.0));
        QCOMPARE(p.perCommand(), std::size_t(1));
        p.record(1, s(30.0)); // never below one
        QCOMPARE(p.perCommand(), std::size_t(1));
    }

    void aCommandWithinHalfTheTargetDoublesIt()
    {
        // A server with a fixed cost per command (a collection scan of 2 s) and a small one per
        // document: the size grows while doubling it would still meet the target.
        WritePacer p;
        p.record(10, s(2.0 + 10 * 0.02));
        QCOMPARE(p.perCommand(), std::size_t(20));
        p.record(20, s(2.0 + 20 * 0.02));
        QCOMPARE(p.perCommand(), std::size_t(40));
        p.record(40, s(2.0 + 40 * 0.02)); // 2.8 s: twice that would miss the target
        QCOMPARE(p.perCommand(), std::size_t(40));
        p.record(40, WritePacer::kTargetSeconds / 2 + 0.01);
        QCOMPARE(p.perCommand(), std::size_t(40));
    }

    void fastCommandsGrowItBack()
    {
        WritePacer p;
        p.record(10, s(250.0));
        QCOMPARE(p.perCommand(), std::size_t(1));
        p.record(1, s(0.1));
        QCOMPARE(p.perCommand(), std::size_t(2));
        p.record(1, s(0.1)); // a smaller command than allowed says nothing about the limit
        QCOMPARE(p.perCommand(), std::size_t(2));
        for (int i = 0; i < 10; ++i)
            p.record(p.perCommand(), s(0.5));
        QCOMPARE(p.perCommand(), WritePacer::kMax);
    }
};

QTEST_GUILESS_MAIN(TestWritePacer)
#include "tst_writepacer.moc"
