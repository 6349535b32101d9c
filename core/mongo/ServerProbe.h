#pragma once

#include "mongo/MongoConnection.h"
#include "mongo/ServerInfo.h"

namespace oe {

// Asks a server what it is (hello, buildInfo) and tries the features analysis relies on, so
// the product can fall back where a server (FerretDB, DocumentDB, Cosmos DB) lacks one.
class ServerProbe
{
public:
    // Whether to time the link (ServerInfo::roundTripMs: three pings).
    enum class Latency
    {
        Measure,
        Skip
    };
    // `database` is where the capability probes run (an aggregate on a collection that need not
    // exist); nothing is written. One aggregate tries $sample, $bsonSize and $unsetField
    // together; only where the server refuses it are they tried one by one.
    static bool probe(MongoConnection &connection, const QString &database, ServerInfo *info,
                      SourceError *error, Latency latency = Latency::Measure);
    // The link's round trip: the fastest of three pings, in ms; -1 when the server does not
    // answer.
    static double roundTripMs(MongoConnection &connection);
    // Connects with `settings` and probes: "Test connection".
    static bool probe(const ConnectionSettings &settings, const QString &database, ServerInfo *info,
                      SourceError *error);
};

} // namespace oe
