#pragma once

#include "watch/WatchEnd.h"
#include "watch/WatchOptions.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace oe {

// The watch's worker: lives on its own thread (WatchRunner moves it there) and runs core's
// CollectionWatch until the shared flag is set or the collection is gone, each event and status
// line a signal (queued to whoever listens on the UI thread), and how it ended.
class WatchWorker : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    void run(const WatchOptions &options, const std::shared_ptr<std::atomic<bool>> &cancel);

signals:
    void event(const oe::WatchEvent &event);
    void status(const QString &text);
    void finished(const oe::WatchEnd &end);
};

} // namespace oe
