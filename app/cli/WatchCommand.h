#pragma once

#include <QStringList>

// `watch`: core's CollectionWatch from the command line: each document crossing the size or
// array threshold as it happens (a change stream on a replica set, a periodic check elsewhere),
// as lines or JSON lines, and a Prometheus text file; --once for cron and monitoring (exit 1 when
// a document is over).
class WatchCommand
{
public:
    static int run(const QStringList &arguments);
};
