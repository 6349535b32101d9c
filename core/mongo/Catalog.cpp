#include "mongo/Catalog.h"

#include "mongo/CollectionCatalog.h"
#include "mongo/MongoConnection.h"

namespace oe {

Catalog Catalog::load(const ConnectionSettings &settings)
{
    Catalog catalog;
    auto connection = MongoConnection::open(settings, &catalog.error);
    if (!connection)
        return catalog;
    std::vector<DatabaseInfo> databases;
    SourceError listError;
    if (!CollectionCatalog::databases(*connection, &databases, &listError)) {
        // Users without listDatabases rights can still browse the database in their URI.
        if (connection->defaultDatabase().isEmpty()) {
            catalog.error = listError;
            return catalog;
        }
        databases = {DatabaseInfo{connection->defaultDatabase(), std::nullopt}};
    }
    for (const DatabaseInfo &db : databases) {
        Database entry{db, {}};
        SourceError error;
        if (!CollectionCatalog::collections(*connection, db.name, &entry.collections, &error)) {
            catalog.error = error;
            return catalog;
        }
        catalog.databases.push_back(std::move(entry));
    }
    return catalog;
}

} // namespace oe
