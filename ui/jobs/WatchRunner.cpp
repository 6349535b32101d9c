#include "jobs/WatchRunner.h"

#include "jobs/WatchWorker.h"

#include <QCoreApplication>
#include <QThread>

namespace oe {

WatchRunner::WatchRunner(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<WatchEvent>();
    qRegisterMetaType<WatchEnd>();
}

WatchRunner::~WatchRunner()
{
    stop();
}

void WatchRunner::start(const WatchOptions &options)
{
    if (m_running)
        return;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto *thread = new QThread;
    auto *worker = new WatchWorker;
    worker->moveToThread(thread);
    const auto cancel = m_cancel;
    connect(thread, &QThread::started, worker,
            [worker, options, cancel] { worker->run(options, cancel); });
    connect(worker, &WatchWorker::event, this, &WatchRunner::event);
    connect(worker, &WatchWorker::status, this, &WatchRunner::status);
    connect(worker, &WatchWorker::finished, this, [this](const WatchEnd &end) {
        m_running = false;
        emit finished(end);
    });
    connect(worker, &WatchWorker::finished, thread, &QThread::quit);
    connect(thread, &QThread::finished, worker, &QObject::deleteLater);
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    // Quitting with a watch running: it is told to stop, and waited for, not cut off mid-call.
    if (auto *app = QCoreApplication::instance())
        connect(app, &QCoreApplication::aboutToQuit, thread, [thread, cancel] {
            cancel->store(true);
            thread->wait(7000);
        });
    m_thread = thread;
    m_running = true;
    thread->start();
}

void WatchRunner::stop()
{
    if (m_cancel)
        m_cancel->store(true);
}

} // namespace oe
