#pragma once

// Internal to core: what only core does with a MongoConnection, in the driver's own types.

#include "MongoConnection.h"

#include <mongoc/mongoc.h>

namespace oe {

class MongoDriver
{
public:
    static mongoc_client_t *client(const MongoConnection &connection);
    // A driver error as a SourceError naming the host and `step`, redacted, with what the
    // driver logged about it on this thread.
    static SourceError errorFrom(const MongoConnection &connection, const bson_error_t &e,
                                 const QString &step);
};

} // namespace oe
