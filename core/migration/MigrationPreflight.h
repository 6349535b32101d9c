#pragma once

#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QStringList>

namespace oe {

class MongoConnection;
struct ServerInfo;

// Everything a live split checks before it writes anything: the collection exists; the field
// exists, is an array wherever it exists and does not lie inside an array of documents; an
// earlier run of the same field used the same configuration (and no other run shares the flag
// or the overflow collection); the overflow collection holds only our pages; a new run's
// link, flag, count and pages fields are none the documents hold already. A filter the
// server refuses is a usage error naming --filter.
class MigrationPreflight
{
public:
    static bool check(MongoConnection &connection, const QString &database,
                      const SplitConfig &config, QStringList *notes, SourceError *error);
    // The layout's own part of check(), cheap enough to run as the user types: no other run
    // of the field used another configuration or shares the flag or the overflow collection,
    // and the overflow collection is empty or holds only this field's pages.
    static bool checkLayout(MongoConnection &connection, const QString &database,
                            const SplitConfig &config, SourceError *error);
    // On a sharded collection (as config.collections says), sets `config->shardKey` so every
    // guarded update names the key, and notes the layout; refuses (a usage error) a field that is
    // part of the key, or holds or lies in one of its fields, unless `refuseKeyField` is false
    // (a rollback restores what a split wrote). True where the collection is not sharded.
    static bool sharding(MongoConnection &connection, const QString &database, SplitConfig *config,
                         QStringList *notes, SourceError *error, bool refuseKeyField = true);
    // The warning a split of `collection` on this server needs because its updates are not
    // (or may not be) atomic, as a note; empty where they are (MongoDB, FerretDB 2.x).
    static QString atomicityNote(const ServerInfo &server, const QString &collection);
};

} // namespace oe
