#pragma once

// Internal to core: what only core does with a MongoConnection, in the driver's own types.

#include "mongo/MongoConnection.h"

#include <mongoc/mongoc.h>

#include <optional>

namespace oe {

class MongoDriver
{
public:
    static mongoc_client_t *client(const MongoConnection &connection);
    // A driver error as a SourceError naming the host and `step`, redacted, with what the
    // driver logged about it on this thread.
    static SourceError errorFrom(const MongoConnection &connection, const bson_error_t &e,
                                 const QString &step);
    // Whether database.collection exists; nullopt (and `error`, naming `step`) when the
    // server could not say: this is also where an unreachable server shows itself.
    static std::optional<bool> collectionExists(const MongoConnection &connection,
                                                const QString &database, const QString &collection,
                                                const QString &step, SourceError *error);
};

} // namespace oe
