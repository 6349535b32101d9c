#pragma once

#include "watch/WatchOptions.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace oe {

// The watch's worker: lives on its own thread (WatchRunner moves it there) and runs core's
// CollectionWatch until the shared flag is set, each event and status line a signal (queued to
// whoever listens on the UI thread).
class WatchWorker : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    void run(const WatchOptions &options, const std::shared_ptr<std::atomic<bool>> &cancel);

signals:
    void event(const oe::WatchEvent &event);
    void status(const QString &text);
    void finished(bool ok, const QString &error);
};

} // namespace oe
