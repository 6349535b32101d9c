#pragma once

#include "source/SourceError.h"

#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace oe {

class MongoConnection;

// Keeps a run from racing the writes of an interrupted one. A client killed mid-run leaves its
// last messages to be executed after it died (on a slow link, or queued behind a long scan on
// the server): a rollback started at once could write a document back and delete its pages,
// and then the dead run's trim land on the restored document. Each split therefore announces
// a name unique to it (its connection's application name, which the server lists with every
// connection and operation in $currentOp) and records it in the journal while it runs; a
// rollback finding it there waits until the server holds nothing of that name any more, or,
// on a server that does not list its connections (FerretDB), a settling time.
class RunFence
{
public:
    // `base` with a suffix unique to this run: "outlier-explorer split 3f9c0a12".
    static QString writerName(const QString &base);

    // Waits as described; `waiting` is told once, when there is something to wait for (its
    // text says what). False with `error` when the run is still connected after kLimitSeconds
    // (it is not interrupted but running), or when cancelled (error empty).
    static bool waitForInterrupted(MongoConnection &connection, const QString &writer,
                                   const std::atomic<bool> *cancel,
                                   const std::function<void(const QString &)> &waiting,
                                   SourceError *error);

    // Whether the run named `writer` is connected to the server now (it is running, not
    // interrupted); nullopt where the server does not list its connections (FerretDB).
    static std::optional<bool> isConnected(MongoConnection &connection, const QString &writer);

    static constexpr int kLimitSeconds = 120;
    static constexpr int kSettleSeconds = 10;
};

} // namespace oe
