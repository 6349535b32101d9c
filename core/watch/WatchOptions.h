#pragma once

#include "mongo/ConnectionSettings.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace oe {

// What a watch looks at and for: a collection, and the size and array length a document must
// not exceed (either may be off).
struct WatchOptions
{
    ConnectionSettings settings;
    QString database;
    QString collection;
    std::uint64_t sizeThreshold = 0; // bytes; 0: not watched
    QString field;                   // the array, dot notation; empty: not watched
    std::uint64_t keep = 0;          // its length must not exceed this
    int intervalMs = 60000;          // the periodic check where there is no change stream
    // Empty when usable, else every problem, one line each (the CLI's option names).
    QStringList problems() const;
};

// A document over a threshold: seen by the change stream as it was written, or by a check.
struct WatchEvent
{
    QDateTime at; // the server's clusterTime for a change, else when it was seen (UTC)
    QString id;   // relaxed extended JSON
    std::uint64_t size = 0;
    std::int64_t length = -1; // the watched array's, -1 when not watched or not an array
    QString operation;        // insert, update, replace, or check
    bool overSize = false;
    bool overArray = false;
};

} // namespace oe

Q_DECLARE_METATYPE(oe::WatchEvent)
