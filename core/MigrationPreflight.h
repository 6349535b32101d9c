#pragma once

#include "SourceError.h"
#include "SplitConfig.h"

#include <QStringList>

namespace oe {

class MongoConnection;

// Everything a live split checks before it writes anything: the collection exists; the field
// exists, is an array wherever it exists and does not lie inside an array of documents; an
// earlier run of the same field used the same configuration (and no other run shares the flag
// or the overflow collection); the overflow collection holds only our pages.
class MigrationPreflight
{
public:
    static bool check(MongoConnection &connection, const QString &database,
                      const SplitConfig &config, QStringList *notes, SourceError *error);
};

} // namespace oe
