#include "jobs/WatchWorker.h"

#include "watch/CollectionWatch.h"

namespace oe {

void WatchWorker::run(const WatchOptions &options, const std::shared_ptr<std::atomic<bool>> &cancel)
{
    emit finished(CollectionWatch::run(
        options, cancel.get(), [this](const WatchEvent &e) { emit event(e); },
        [this](const QString &text) { emit status(text); }));
}

} // namespace oe
