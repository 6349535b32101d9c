#pragma once

#include "source/SourceError.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace oe {

class MongoConnection;

// The journal collections of a cluster, for the histories that read them (MigrationHistory's
// splits, RewriteHistory's rewrites): every collection `isJournal` accepts in the given
// databases (empty: every database the connection may list), visited in catalog order.
class JournalCollections
{
public:
    static bool
    visit(MongoConnection &connection, const QStringList &databases,
          const std::function<bool(const QString &)> &isJournal,
          const std::function<bool(const QString &database, const QString &journal)> &visitJournal,
          SourceError *error);
};

} // namespace oe
