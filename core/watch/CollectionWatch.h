#pragma once

#include "source/SourceError.h"
#include "watch/WatchEnd.h"
#include "watch/WatchOptions.h"

#include <atomic>
#include <functional>
#include <vector>

namespace oe {

// The growth watch: which documents of a collection are over the size or array threshold now
// (check: one aggregation with a server-side $match on $bsonSize and $size, or, on a server
// without $bsonSize, a read that sizes each document here), and, until cancelled, each one
// crossing as it happens (run): on a replica set or a sharded cluster one change stream
// whose $match/$project keep only the crossing documents' _id, size and length (the server
// reads nothing else), resumed from its token after a lost connection; elsewhere the check,
// every intervalMs. A database or collection that is not there is an error (naming the names
// nearby), at the start and when it goes away: a watch ends with its collection. Blocking: run
// it on its own thread.
class CollectionWatch
{
public:
    enum class Mode
    {
        ChangeStream,
        PeriodicCheck
    };
    using EventCallback = std::function<void(const WatchEvent &)>;
    // What the watch does beside events, one line each: its mode, a lost connection, a resume.
    using StatusCallback = std::function<void(const QString &)>;

    // A missing database or collection: a usage error naming the names nearby.
    static std::vector<WatchEvent> check(const WatchOptions &options, SourceError *error);
    // Until *cancel (checked at least once a second: Stopped), or until it cannot start
    // (Failed), or until the collection is gone (dropped, renamed, its database dropped).
    static WatchEnd run(const WatchOptions &options, const std::atomic<bool> *cancel,
                        const EventCallback &onEvent, const StatusCallback &onStatus);
};

} // namespace oe
