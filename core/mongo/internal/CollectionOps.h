#pragma once

// Internal to core: the handful of collection operations the migration needs, over libmongoc,
// with errors turned into SourceErrors that name the host and the step.

#include "bson/internal/BsonDocument.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/DriverHandles.h"

#include <QByteArray>

#include <mongoc/mongoc.h>

#include <functional>
#include <string>
#include <vector>

namespace oe {

class CollectionOps
{
public:
    CollectionOps(MongoConnection &connection, const QString &database, const QString &collection);
    ~CollectionOps();
    CollectionOps(const CollectionOps &) = delete;
    CollectionOps &operator=(const CollectionOps &) = delete;

    QString ns() const { return m_ns; }

    struct Write
    {
        enum class Kind
        {
            ReplaceUpsert,
            UpdateOne,
            UpdateMany,
            UpdateOneUpsert,
            DeleteMany,
            Insert,
            ReplaceOne // no upsert; `options` as UpdateOne's
        };
        Kind kind;
        QByteArray filter;         // BSON
        QByteArray document;       // replacement, update, or inserted document (BSON)
        std::size_t documents = 1; // at most this many documents written (UpdateMany: its guards)
        QByteArray options{};      // UpdateOne: the statement's options (BSON), e.g. a collation
    };
    // Unordered bulk write, sent in commands writing at most the connection's
    // writePacer().perCommand() documents each (one statement may exceed it alone); false with
    // `error` set if the server rejected any of it (the commands before it stay applied).
    bool bulk(const std::vector<Write> &writes, const QString &step, SourceError *error);
    // Runs find(filter, opts) and calls `visit` with each document's bytes (stop by returning
    // false).
    bool find(const QByteArray &filter, const QByteArray &opts, const QString &step,
              const std::function<bool(const QByteArray &)> &visit, SourceError *error);
    std::int64_t count(const QByteArray &filter, const QString &step, SourceError *error);
    bool exists(SourceError *error); // the collection is there
    bool createUniqueIndex(const QStringList &keys, const QString &step, SourceError *error);
    // An ascending index on `keys` (named <k>_1_<k>_1) made unless one with these keys is there:
    // true with `created` set when this call made it.
    bool ensureIndex(const QStringList &keys, const QString &step, bool *created,
                     SourceError *error);
    bool dropIndex(const QString &name, const QString &step, SourceError *error);
    // The collection dropped (gone already: fine).
    bool drop(const QString &step, SourceError *error);
    static QString indexName(const QStringList &keys);

    static QByteArray toBytes(const bson_t *doc);
    static bool view(const QByteArray &bytes, bson_t *doc);

private:
    bool command(const Write *writes, std::size_t count, const QString &step, SourceError *error);
    static BsonDocument statementOptions(const Write &w);

    MongoConnection &m_connection;
    CollectionHandle m_collection;
    QString m_database, m_name, m_ns;
};

} // namespace oe
