#pragma once

#include "JournalState.h"
#include "SplitConfig.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
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
    // The run's own document: its configuration and state.
    static QByteArray runDocument(const SplitConfig &config, RunState state);
    // False when `bson` is not a run document, or records a state this version does not know.
    static bool configFromRunDocument(const QByteArray &bson, SplitConfig *config, RunState *state);
};

} // namespace oe
