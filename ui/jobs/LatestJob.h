#pragma once

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QMutex>
#include <QObject>
#include <QPointer>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace oe {

// The one primitive for background work in the GUI. A slot owned by a widget or model: start()
// runs `work` on the thread pool and hands its result to `done` on this object's (the UI)
// thread. Latest request wins: starting again, cancel() or destroying the slot sets the
// earlier job's cancel flag and drops its result (and progress), so a stale answer never
// reaches the view. `work` may take the flag (`const std::atomic<bool> &`) to stop early;
// results cross threads by value. startWithProgress() also hands `work` a reporter: the
// latest value it reports reaches `progress` on the UI thread, coalesced (one delivery queued
// at a time, however often the work reports). Jobs live on the UI thread, like their owners.
// Modelled on KDAB hotspot's JobTracker.
class LatestJob : public QObject
{
    Q_OBJECT
public:
    explicit LatestJob(QObject *parent = nullptr) : QObject(parent) {}
    ~LatestJob() override { cancel(); }

    template <typename Work, typename Done> void start(Work work, Done done)
    {
        run([work = std::move(work)](
                const std::atomic<bool> &flag) mutable { return call(work, flag); },
            std::move(done));
    }

    // `work(cancel, report)`, where `report(const Progress &)` may be called from the worker
    // thread as often as it likes; `progress(const Progress &)` sees the latest value on the UI
    // thread, the last one just before `done`, and nothing of a superseded job.
    template <typename Progress, typename Work, typename Done, typename OnProgress>
    void startWithProgress(Work work, Done done, OnProgress progress)
    {
        auto box = std::make_shared<ProgressBox<Progress>>();
        box->generation = run(
            [work = std::move(work), box](const std::atomic<bool> &flag) mutable {
                const std::function<void(const Progress &)> report = [box](const Progress &p) {
                    ProgressBox<Progress>::post(box, p);
                };
                return work(flag, report);
            },
            [box, done = std::move(done)](const auto &result) {
                box->flush(); // the last progress before the result
                done(result);
            });
        // Set before the UI thread can deliver anything: deliveries are queued to this thread.
        box->deliver = [self = QPointer<LatestJob>(this), box = std::weak_ptr(box),
                        progress = std::move(progress)](const Progress &p) {
            auto b = box.lock();
            if (self && b && b->generation == self->m_generation)
                progress(p);
        };
    }

    // The running job's result will be dropped; the job is asked to stop.
    void cancel()
    {
        if (m_cancel)
            m_cancel->store(true);
        m_cancel.reset();
        if (m_running > 0) {
            ++m_generation;
            m_running = 0;
        }
    }
    // Asks the running job to stop early; unlike cancel(), its result still arrives.
    void requestStop()
    {
        if (m_cancel)
            m_cancel->store(true);
    }
    bool isRunning() const { return m_running > 0; }

    // The pool background jobs run on. Not Qt's global pool: Qt itself uses that one from the
    // UI thread (image conversion and scaling while painting) and waits for it, so long jobs
    // there would hold every repaint until one of them ends.
    static QThreadPool *pool()
    {
        static QThreadPool jobs;
        static const bool sized = [] {
            jobs.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
            jobs.setObjectName(QStringLiteral("background jobs"));
            // The pool's threads end while the application still exists (its post routines
            // run first thing in its destructor): a job that laid out text (a report's PDF)
            // leaves a per-thread font cache, which only a thread that ends before the font
            // database goes can give back. At exit the jobs have been told to stop.
            qAddPostRoutine([] { pool()->waitForDone(); });
            return true;
        }();
        Q_UNUSED(sized)
        return &jobs;
    }

private:
    // The latest progress of one job: written by its worker, taken on the UI thread.
    template <typename Progress> struct ProgressBox
    {
        QMutex mutex;
        std::optional<Progress> latest;
        bool queued = false;
        int generation = 0;                            // UI thread only
        std::function<void(const Progress &)> deliver; // UI thread only

        static void post(const std::shared_ptr<ProgressBox> &box, const Progress &p)
        {
            {
                QMutexLocker lock(&box->mutex);
                box->latest = p;
                if (box->queued)
                    return;
                box->queued = true;
            }
            // Queued to the application's (the UI) thread, where jobs live; the delivery checks
            // there that the job still exists and is still the latest.
            QMetaObject::invokeMethod(
                QCoreApplication::instance(), [box] { box->flush(); }, Qt::QueuedConnection);
        }
        void flush()
        {
            std::optional<Progress> p;
            {
                QMutexLocker lock(&mutex);
                p.swap(latest);
                queued = false;
            }
            if (p && deliver)
                deliver(*p);
        }
    };

    // Returns the job's generation.
    template <typename Work, typename Done> int run(Work work, Done done)
    {
        cancel();
        const int generation = ++m_generation;
        auto flag = std::make_shared<std::atomic<bool>>(false);
        m_cancel = flag;
        using Result = decltype(work(*flag));
        auto *watcher = new QFutureWatcher<Result>(this);
        connect(watcher, &QFutureWatcher<Result>::finished, this,
                [this, watcher, generation, done = std::move(done)] {
                    watcher->deleteLater();
                    if (generation != m_generation)
                        return;
                    --m_running;
                    done(watcher->result());
                });
        ++m_running;
        watcher->setFuture(QtConcurrent::run(
            pool(), [work = std::move(work), flag]() mutable { return work(*flag); }));
        return generation;
    }
    template <typename Work> static auto call(Work &work, const std::atomic<bool> &cancelled)
    {
        if constexpr (std::invocable<Work &, const std::atomic<bool> &>)
            return work(cancelled);
        else
            return work();
    }

    std::shared_ptr<std::atomic<bool>> m_cancel;
    int m_generation = 0;
    int m_running = 0;
};

} // namespace oe
