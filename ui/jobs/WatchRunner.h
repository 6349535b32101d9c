#pragma once

#include "watch/WatchEnd.h"
#include "watch/WatchOptions.h"

#include <QObject>
#include <QPointer>

#include <atomic>
#include <memory>

class QThread;

namespace oe {

// A growth watch in the background (WatchWorker on its own QThread): start, stop (an atomic
// flag the watch checks at least once a second), its events and status lines as signals on the
// UI thread, and how it ended (stopped, failed, or the collection gone: then it is over, not
// retried). Destroying it stops the watch without waiting; the application waits for the
// thread (a few seconds at most) when it quits.
class WatchRunner : public QObject
{
    Q_OBJECT
public:
    explicit WatchRunner(QObject *parent = nullptr);
    ~WatchRunner() override;

    void start(const WatchOptions &options);
    void stop();
    bool isRunning() const { return m_running; }

signals:
    void event(const oe::WatchEvent &event);
    void status(const QString &text);
    void finished(const oe::WatchEnd &end);

private:
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QPointer<QThread> m_thread;
    bool m_running = false;
};

} // namespace oe
