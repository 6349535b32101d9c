#include "jobs/LatestJob.h"

#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>

using namespace oe;

// The GUI's one job primitive: work runs off the UI thread, the latest request wins, a stale
// result never reaches the view, the superseded job is asked to stop, and progress reaches the
// UI thread coalesced, the last value before the result, nothing of a superseded job.
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

    // A worker that reports far faster than the UI thread runs: the UI sees some of the values
    // (never more than were reported, in order), always the last one, and it before the result.
    void progressIsCoalescedAndTheLastArrivesBeforeTheResult()
    {
        LatestJob job;
        QSemaphore reported;
        QList<int> seen;
        QList<QString> order;
        job.startWithProgress<int>(
            [&reported](const std::atomic<bool> &, const std::function<void(const int &)> &report) {
                for (int i = 1; i <= 100000; ++i)
                    report(i);
                reported.release();
                return QStringLiteral("done");
            },
            [&](const QString &r) { order << r; },
            [&](const int &p) {
                QCOMPARE(QThread::currentThread(), qApp->thread());
                seen << p;
                order << QStringLiteral("progress");
            });
        QVERIFY(reported.tryAcquire(1, 10000)); // every value reported, none delivered yet
        QVERIFY(seen.isEmpty());
        QTRY_COMPARE(order.isEmpty() ? QString() : order.last(), QStringLiteral("done"));
        QVERIFY(!seen.isEmpty());
        QVERIFY2(seen.size() <= 3, qPrintable(QString::number(seen.size()))); // coalesced
        QCOMPARE(seen.last(), 100000);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(order.size(), seen.size() + 1); // every progress before the result
    }

    // A superseded job's progress, queued or still to come, never reaches the view.
    void supersededProgressIsDropped()
    {
        LatestJob job;
        QSemaphore release;
        QSemaphore firstReported;
        QList<int> seen;
        job.startWithProgress<int>(
            [&](const std::atomic<bool> &, const std::function<void(const int &)> &report) {
                report(1); // queued on the UI thread, not delivered until it runs
                firstReported.release();
                release.acquire();
                report(2);
                return 0;
            },
            [](int) { QFAIL("the superseded job's result arrived"); },
            [&](const int &p) { seen << p; });
        QVERIFY(firstReported.tryAcquire(1, 5000));
        job.startWithProgress<int>(
            [](const std::atomic<bool> &, const std::function<void(const int &)> &report) {
                report(10);
                return 1;
            },
            [](int) {}, [&](const int &p) { seen << p; });
        release.release();
        QTRY_VERIFY(!job.isRunning());
        QTest::qWait(50);
        QCOMPARE(seen, QList<int>{10});
    }

    // requestStop(): the work sees the flag, and, unlike cancel(), its result still arrives.
    void requestStopKeepsTheResult()
    {
        LatestJob job;
        QSemaphore started;
        int result = 0;
        job.start(
            [&started](const std::atomic<bool> &stop) {
                started.release();
                while (!stop.load())
                    QThread::yieldCurrentThread();
                return 5;
            },
            [&](int r) { result = r; });
        QVERIFY(started.tryAcquire(1, 5000));
        job.requestStop();
        QTRY_COMPARE(result, 5);
        QVERIFY(!job.isRunning());
    }
};

QTEST_MAIN(TestLatestJob)
#include "tst_latestjob.moc"
