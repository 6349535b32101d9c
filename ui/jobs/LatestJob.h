#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <memory>
#include <type_traits>
#include <utility>

namespace oe {

// One slot for background work owned by a widget: start() runs `work` on the thread pool and
// hands its result to `done` on this object's (the UI) thread. Latest request wins: starting
// again, cancel() or destroying the slot sets the earlier job's cancel flag and drops its
// result, so a stale answer never reaches the view. `work` may take the flag
// (`const std::atomic<bool> &`) to stop early; results cross threads by value. Modelled on KDAB
// hotspot's JobTracker.
class LatestJob : public QObject
{
    Q_OBJECT
public:
    explicit LatestJob(QObject *parent = nullptr) : QObject(parent) {}
    ~LatestJob() override { cancel(); }

    template <typename Work, typename Done> void start(Work work, Done done)
    {
        cancel();
        const int generation = ++m_generation;
        auto flag = std::make_shared<std::atomic<bool>>(false);
        m_cancel = flag;
        using Result = decltype(call(work, *flag));
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
            pool(), [work = std::move(work), flag]() mutable { return call(work, *flag); }));
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
            return true;
        }();
        Q_UNUSED(sized)
        return &jobs;
    }

private:
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
