#include "jobs/LatestJob.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>

using namespace oe;

// The GUI's one async helper: work runs off the UI thread, the latest request wins, a stale
// result never reaches the view, and the superseded job is asked to stop.
class TestLatestJob : public QObject
{
    Q_OBJECT

private slots:
    void resultArrivesOnTheOwnersThread()
    {
        LatestJob job;
        QThread *worker = nullptr;
        QThread *delivered = nullptr;
        int result = 0;
        job.start(
            [&] {
                worker = QThread::currentThread();
                return 42;
            },
            [&](int r) {
                delivered = QThread::currentThread();
                result = r;
            });
        QVERIFY(job.isRunning());
        QTRY_COMPARE(result, 42);
        QVERIFY(worker != nullptr && worker != QThread::currentThread());
        QCOMPARE(delivered, QThread::currentThread());
        QVERIFY(!job.isRunning());
    }

    void latestRequestWins()
    {
        LatestJob job;
        QSemaphore release;
        auto firstSawCancel = std::make_shared<std::atomic<bool>>(false);
        QList<int> delivered;
        job.start(
            [&release, firstSawCancel](const std::atomic<bool> &cancelled) {
                release.acquire(); // held until the second request is made
                firstSawCancel->store(cancelled.load());
                return 1;
            },
            [&](int r) { delivered << r; });
        job.start([] { return 2; }, [&](int r) { delivered << r; });
        release.release();
        QTRY_COMPARE(delivered, QList<int>{2});
        QTRY_VERIFY(firstSawCancel->load()); // the superseded job was asked to stop
        QTest::qWait(50);                    // and its result never arrives
        QCOMPARE(delivered, QList<int>{2});
        QVERIFY(!job.isRunning());
    }

    void cancelDropsTheResult()
    {
        LatestJob job;
        QSemaphore release;
        bool called = false;
        job.start(
            [&release] {
                release.acquire();
                return 7;
            },
            [&](int) { called = true; });
        job.cancel();
        QVERIFY(!job.isRunning());
        release.release();
        QTest::qWait(100);
        QVERIFY(!called);
    }

    void destroyingTheOwnerWhileWorkRunsIsSafe()
    {
        QSemaphore release;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        auto finished = std::make_shared<QSemaphore>();
        {
            LatestJob job;
            job.start(
                [&release, sawCancel, finished](const std::atomic<bool> &cancelled) {
                    release.acquire();
                    sawCancel->store(cancelled.load());
                    finished->release();
                    return 0;
                },
                [](int) { QFAIL("a result after the owner was destroyed"); });
        }
        release.release();
        QVERIFY(finished->tryAcquire(1, 5000));
        QVERIFY(sawCancel->load());
        QTest::qWait(50);
    }
};

QTEST_MAIN(TestLatestJob)
#include "tst_latestjob.moc"
