#pragma once

#include "mongo/CollectionInfo.h"
#include "mongo/ConnectionSettings.h"
#include "mongo/ServerInfo.h"
#include "source/SourceError.h"

#include <QMetaType>

#include <vector>

namespace oe {

// What a connection holds, as the source tree shows it (a value type from a worker thread).
struct Catalog
{
    struct Database
    {
        DatabaseInfo info;
        std::vector<CollectionInfo> collections;
    };
    std::vector<Database> databases;
    SourceError error; // set when listing failed

    // Lists every database (or only `database` when the URI names one and listing all is
    // not allowed) with its collections and their statistics. Blocking.
    static Catalog load(const ConnectionSettings &settings);
};

} // namespace oe

Q_DECLARE_METATYPE(oe::Catalog)
