#pragma once

#include "migration/JournalState.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>

namespace oe {

// One migrated document in the migration journal (<collection>_outlier_migrations, or the
// journal file next to an offline split): enough to verify the split and to undo it exactly.
struct JournalEntry
{
    QString run;              // the run: the array field's path
    std::string rawId;        // the document's _id (DocumentId encoding)
    std::uint64_t length = 0; // the array's length when it was split
    QByteArray digest;        // SHA-256 of its elements (see DocumentSplitter)
    QByteArray originalFlag, originalCount, originalPages; // raw values the split overwrote
    EntryState state = EntryState::Pending;

    QByteArray toBson() const;
    static bool fromBson(const QByteArray &bson, JournalEntry *entry);
    // The journal's _id for a document: {run, doc} (as BSON bytes of the {_id: …} filter).
    static QByteArray idFilter(const QString &run, const std::string &rawId);
    // The run's own document: its configuration and state, and once applied the number of
    // document entries the run wrote (verify and rollback refuse a journal that lost some).
    // While a split runs, its writer name (RunFence) is recorded too, and removed when it ends
    // or stops: a writer found in the journal is an interrupted run's.
    static QByteArray runDocument(const SplitConfig &config, RunState state,
                                  std::optional<std::uint64_t> documents = {},
                                  const std::optional<QString> &writer = {});
    static std::optional<QString> writerOf(const QByteArray &runDocument);
    static std::optional<std::uint64_t> recordedDocuments(const QByteArray &runDocument);
    // A run's or entry's "state" word as stored (for messages about damaged entries).
    static QString stateWordOf(const QByteArray &bson);
    static QString runFieldOf(const QByteArray &bson); // its "run": the array field's path
    // False when `bson` is not a run document, records a state this version does not know, or
    // a config that is not one runDocument writes (`problem` says what, in words).
    static bool configFromRunDocument(const QByteArray &bson, SplitConfig *config, RunState *state,
                                      QString *problem = nullptr);
};

} // namespace oe
