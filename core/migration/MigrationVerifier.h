#pragma once

#include "migration/BatchSizer.h"
#include "migration/JournalState.h"
#include "migration/MigrationOptions.h"
#include "migration/VerifyReport.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QByteArray>

#include <atomic>
#include <map>
#include <vector>

namespace oe {

class MongoConnection;
struct JournalEntry;

// Checks a live migration against its journal: for every migrated document, the primary's
// elements followed by its pages equal the original array (by digest), pages are numbered
// without gaps, and the count field matches. Mismatches are listed.
class MigrationVerifier
{
public:
    static bool verify(MongoConnection &connection, const QString &database,
                       const SplitConfig &config, VerifyReport *report, SourceError *error);

    // The configuration a run of `field` used, from the journal; false if there is none.
    static bool journaledConfig(MongoConnection &connection, const QString &database,
                                const QString &collection, const QString &field,
                                SplitConfig *config, RunState *state, SourceError *error);

    // Shared with rollback: loads the primaries and pages of a batch of journal entries.
    struct Loaded
    {
        std::map<QByteArray, QByteArray> primaries;          // by _id raw value
        std::map<QByteArray, std::vector<QByteArray>> pages; // by link raw value, in page order
    };
    static bool load(MongoConnection &connection, const QString &database,
                     const SplitConfig &config, const std::vector<JournalEntry> &entries,
                     Loaded *loaded, SourceError *error);
    // Reads the journal's document entries of this run in the given states, in batches.
    static bool forEachEntryBatch(MongoConnection &connection, const QString &database,
                                  const SplitConfig &config, const std::vector<EntryState> &states,
                                  BatchSizer &sizer,
                                  const std::function<bool(std::vector<JournalEntry> &)> &visit,
                                  SourceError *error);
    // The run's own document in the journal (empty when there is none); false on a read error.
    static bool readRunDocument(MongoConnection &connection, const QString &database,
                                const SplitConfig &config, QByteArray *document,
                                SourceError *error);
    // Why the run's journal lacks entries it had when the run finished applying (`found` is
    // how many it has now), or empty.
    static QString missingEntries(MongoConnection &connection, const QString &database,
                                  const SplitConfig &config, std::uint64_t found,
                                  SourceError *error);
    // The check of one document; false (and a line in `report`) if it does not match.
    static bool check(const QByteArray &primary, const std::vector<QByteArray> &pages,
                      const JournalEntry &entry, const SplitConfig &config, VerifyReport *report);
};

} // namespace oe
