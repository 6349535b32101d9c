#pragma once

#include "mongo/MongoConnection.h"
#include "mongo/ServerInfo.h"

namespace oe {

// Asks a server what it is (hello, buildInfo) and tries the features analysis relies on, so
// the product can fall back where a server (FerretDB, DocumentDB, Cosmos DB) lacks one.
class ServerProbe
{
public:
    // `database` is where the capability probes run (an aggregate on a collection that need not
    // exist); nothing is written.
    static bool probe(MongoConnection &connection, const QString &database, ServerInfo *info,
                      SourceError *error);
    // Connects with `settings` and probes: "Test connection".
    static bool probe(const ConnectionSettings &settings, const QString &database, ServerInfo *info,
                      SourceError *error);
};

} // namespace oe
