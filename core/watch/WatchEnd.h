#pragma once

#include "source/SourceError.h"

#include <QMetaType>
#include <QString>

namespace oe {

// How a growth watch ended: stopped (cancelled), failed (it could not start: the error; a
// database or collection that is not there is a usage error naming the names nearby), or the
// collection went away under it. A change stream ends with its collection (MongoDB sends
// `invalidate` after a drop, a rename or a dropDatabase, and resuming from that token is
// refused), so the watch does too, saying what happened where the events tell.
struct WatchEnd
{
    enum class Reason
    {
        Stopped,
        Failed,
        Dropped,         // a `drop` event
        Renamed,         // a `rename` event: renamedTo
        DatabaseDropped, // dropped, and the database has no collection left
        Disappeared,     // a check found it gone (no change stream, or its history was lost)
        Invalidated      // an `invalidate` with no drop or rename before it
    };

    Reason reason = Reason::Stopped;
    QString database;
    QString collection;
    QString renamedTo; // Renamed: "db.collection" as the event named it
    SourceError error; // Failed: why; Disappeared: the names nearby (a usage error)

    static WatchEnd stopped() { return {}; }
    static WatchEnd failed(const SourceError &error);
    // The collection is gone: the watch ended because of it, not because it was told to.
    bool isGone() const { return reason != Reason::Stopped && reason != Reason::Failed; }
    // One line, without a prefix: what happened ("\"db.feeds\" was renamed to \"db.old\"").
    QString message() const;
};

} // namespace oe

Q_DECLARE_METATYPE(oe::WatchEnd)
