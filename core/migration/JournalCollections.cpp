#include "migration/JournalCollections.h"

#include "mongo/CollectionCatalog.h"
#include "mongo/MongoConnection.h"

namespace oe {

bool JournalCollections::visit(
    MongoConnection &connection, const QStringList &databases,
    const std::function<bool(const QString &)> &isJournal,
    const std::function<bool(const QString &database, const QString &journal)> &visitJournal,
    SourceError *error)
{
    QStringList names = databases;
    if (names.isEmpty()) {
        std::vector<DatabaseInfo> all;
        if (!CollectionCatalog::databases(connection, &all, error))
            return false;
        for (const DatabaseInfo &db : all)
            names << db.name;
    }
    for (const QString &database : names) {
        std::vector<CollectionInfo> collections;
        if (!CollectionCatalog::collections(connection, database, &collections, error))
            return false;
        for (const CollectionInfo &c : collections)
            if (isJournal(c.name) && !visitJournal(database, c.name))
                return false;
    }
    return true;
}

} // namespace oe
