#pragma once

#include <optional>

#include <QString>

namespace oe {

// The states a rewrite's journal records, typed; stored as the words journalWord() gives.
enum class RewriteState // the run (its "run:<kind>:<path>" document)
{
    Applying,    // rewriting (or interrupted: apply again to resume)
    Applied,     // every document rewritten or accounted for
    RollingBack, // restoring (or interrupted: roll back again)
    RolledBack   // every document restored or accounted for
};

enum class RewriteEntryState // one document of a run
{
    Pending,      // journaled, its write not yet known to have landed
    Applied,      // the document holds the rewritten value
    ChangedSince, // the application rewrote the field before the rewrite landed: left alone
    Deleted,      // the document was deleted meanwhile
    RolledBack,   // the document holds its original value again
    Kept          // rolling back: the application rewrote the field after the rewrite: kept
};

const char *journalWord(RewriteState state);
const char *journalWord(RewriteEntryState state);
std::optional<RewriteState> rewriteStateFrom(const QString &word);
std::optional<RewriteEntryState> rewriteEntryStateFrom(const QString &word);
inline QString journalText(RewriteState state)
{
    return QString::fromLatin1(journalWord(state));
}

} // namespace oe
