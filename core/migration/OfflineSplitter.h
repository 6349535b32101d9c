#pragma once

#include "migration/JournalState.h"
#include "migration/VerifyReport.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"
#include "split/SplitPlan.h"
#include "split/SplitPlanner.h"

#include <QStringList>

#include <atomic>

namespace oe {

// The split on mongodump files, for mongorestore: DIR/<collection>.bson (documents that are
// not split stay byte-identical), DIR/<overflow>.bson, and DIR/<collection>_outlier_migrations.bson
// (the journal: what verify and rollback need). Verify and rollback read those files back.
class OfflineSplitter
{
public:
    // The collection name a dump file stands for: "books.bson" and "books.bson.gz" -> "books".
    static QString collectionOf(const QString &dumpPath);

    // What split would do, refusing as split refuses (nothing written here in any case): no
    // document has the field, the dump is the output of an earlier split, a document cannot be
    // split. `onRow` sees each document to split.
    static bool plan(const QString &dumpPath, const SplitConfig &config, SplitPlan *plan,
                     SourceError *error, const std::atomic<bool> *cancel = nullptr,
                     const SplitPlanner::RowCallback &onRow = {});
    // The configuration of the split of `field` recorded in the journal beside `splitDump`;
    // false with `error` set when there is none.
    static bool journaledConfig(const QString &splitDump, const QString &field, SplitConfig *config,
                                RunState *state, SourceError *error);

    // Checks every document first (plan); writes nothing if any cannot be split.
    static bool split(const QString &dumpPath, const QString &outDir, const SplitConfig &config,
                      SplitPlan *plan, QStringList *written, SourceError *error,
                      const std::atomic<bool> *cancel = nullptr);
    // `splitDump` is DIR/<collection>.bson; the overflow and journal files are read beside it.
    static bool verify(const QString &splitDump, const SplitConfig &config, VerifyReport *report,
                       SourceError *error);
    // Writes OUTDIR/<collection>.bson with every split document reassembled.
    static bool rollback(const QString &splitDump, const QString &outDir, const SplitConfig &config,
                         VerifyReport *report, QStringList *written, SourceError *error);
};

} // namespace oe
