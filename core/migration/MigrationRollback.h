#pragma once

#include "migration/MigrationOptions.h"
#include "migration/VerifyReport.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <atomic>

namespace oe {

class MongoConnection;

// Undoes a live migration, resumably: each document's pages are appended back to its array
// (checked against the journal's digest first), written with the same guard as the split,
// the flag/count/pages fields restored to what they were, then the pages deleted.
class MigrationRollback
{
public:
    static bool rollback(MongoConnection &connection, const QString &database,
                         const SplitConfig &config, const MigrationOptions &options,
                         VerifyReport *report, MigrationProgress *progress, SourceError *error,
                         const std::atomic<bool> *cancel = nullptr,
                         const MigrationProgressCallback &callback = {});

    static constexpr std::uint64_t kMaxDocumentBytes = 16u * 1024u * 1024u;

private:
    static bool awaitInterruptedSplit(MongoConnection &connection, const QString &database,
                                      const SplitConfig &config, MigrationProgress *progress,
                                      SourceError *error, const std::atomic<bool> *cancel,
                                      const MigrationProgressCallback &callback);
};

} // namespace oe
