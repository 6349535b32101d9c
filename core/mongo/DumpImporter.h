#pragma once

#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>

namespace oe {

// Loads a mongodump .bson file into a collection with unordered bulk inserts (seeding demo
// clusters and tests). Documents are inserted as they are, byte for byte.
class DumpImporter
{
public:
    struct Options
    {
        bool drop = false;                  // drop the collection first
        std::size_t batchDocuments = 1000;  // per bulk write
        std::size_t batchBytes = 16u << 20; // per bulk write (the driver splits further)
    };
    struct Result
    {
        std::uint64_t documents = 0;
        std::uint64_t bytes = 0;
        double seconds = 0.0;
    };
    using Progress = std::function<void(const Result &)>;

    static bool run(const ConnectionSettings &settings, const QString &database,
                    const QString &collection, const QString &dumpPath, const Options &options,
                    Result *result, SourceError *error, const std::atomic<bool> *cancel = nullptr,
                    const Progress &progress = {});
};

} // namespace oe
