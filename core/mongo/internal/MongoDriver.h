#pragma once

// Internal to core: what only core does with a MongoConnection, in the driver's own types.

#include "mongo/MongoConnection.h"
#include "mongo/internal/DriverHandles.h"

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
    // find(filter, opts) on database.collection with the URI's read preference, each document
    // (const bson_t *) to `visit` until it returns false; false (and `error`, naming `step`)
    // when the cursor fails.
    template <typename Visit>
    static bool find(const MongoConnection &connection, const QString &database,
                     const QString &collection, const bson_t *filter, const bson_t *opts,
                     const QString &step, Visit &&visit, SourceError *error)
    {
        const CollectionHandle c(mongoc_client_get_collection(
            client(connection), database.toUtf8().constData(), collection.toUtf8().constData()));
        const CursorHandle cursor(mongoc_collection_find_with_opts(c.get(), filter, opts, nullptr));
        const bson_t *doc = nullptr;
        while (mongoc_cursor_next(cursor.get(), &doc))
            if (!visit(doc))
                break;
        bson_error_t e;
        if (!mongoc_cursor_error(cursor.get(), &e))
            return true;
        *error = errorFrom(connection, e, step);
        return false;
    }
};

} // namespace oe
