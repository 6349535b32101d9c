#pragma once

#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace oe {

class MongoConnection;

// What a finished live rollback leaves on the server: the overflow collection (empty when every
// document was restored), the journal (the record of the run) and the backup of the originals
// (when the split made one). Listed so the user is told, and removed when the user asks, as far
// as that is safe: an overflow collection only while it is empty, the journal's records of this
// run only once it is rolled back (other runs' records stay, the collection goes when nothing
// else is in it), a backup only once the run is rolled back.
class RollbackLeftovers
{
public:
    struct Item
    {
        enum class Kind
        {
            Overflow,
            Journal,
            Backup
        };
        Kind kind = Kind::Overflow;
        QString collection;
        std::int64_t documents = 0;
        QString describe() const; // "overflow collection books_overflow (empty)"
    };

    // The collections that exist, with their documents (for the journal: this run's records).
    static bool find(MongoConnection &connection, const QString &database,
                     const SplitConfig &config, const QString &backupCollection,
                     std::vector<Item> *items, SourceError *error);
    // Removes `items` (as find() listed them); `removed` says what went, in words. An error
    // (nothing more removed) when the run is not rolled back or the overflow is not empty.
    static bool remove(MongoConnection &connection, const QString &database,
                       const SplitConfig &config, const std::vector<Item> &items,
                       QStringList *removed, SourceError *error);
};

} // namespace oe
