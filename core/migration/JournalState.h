#pragma once

#include <QString>

#include <optional>

namespace oe {

// The states a migration journal records, typed. They are stored as the words journalWord()
// gives (the words earlier versions wrote), and read back with the *From functions, so code
// never compares or writes a state as a string of its own.
enum class EntryState // one document of a run
{
    Pending,   // pages written or being written; the document not yet trimmed
    Split,     // trimmed, flagged, its pages complete
    RolledBack // reassembled; its pages deleted
};

enum class RunState // the run as a whole (its "run:<field>" document)
{
    Applying,    // split is writing (or was interrupted: run split again to resume)
    Applied,     // every document split
    RollingBack, // rollback is restoring (or was interrupted: run rollback again)
    RolledBack   // every document restored
};

const char *journalWord(EntryState state);
const char *journalWord(RunState state);
std::optional<EntryState> entryStateFrom(const QString &word);
std::optional<RunState> runStateFrom(const QString &word);
inline QString journalText(RunState state)
{
    return QString::fromLatin1(journalWord(state));
}

} // namespace oe
