#include "migration/JournalState.h"

#include "migration/StateWords.h"

#include <array>
#include <utility>

namespace oe {

namespace {

constexpr statewords::Table<EntryState, 3> kEntryWords{
    std::pair{EntryState::Pending, "pending"}, std::pair{EntryState::Split, "split"},
    std::pair{EntryState::RolledBack, "rolled_back"}};
constexpr statewords::Table<RunState, 4> kRunWords{std::pair{RunState::Applying, "applying"},
                                                   std::pair{RunState::Applied, "applied"},
                                                   std::pair{RunState::RollingBack, "rolling_back"},
                                                   std::pair{RunState::RolledBack, "rolled_back"}};

} // namespace

const char *journalWord(EntryState state)
{
    return statewords::wordOf(kEntryWords, state);
}

const char *journalWord(RunState state)
{
    return statewords::wordOf(kRunWords, state);
}

std::optional<EntryState> entryStateFrom(const QString &word)
{
    return statewords::stateOf(kEntryWords, word);
}

std::optional<RunState> runStateFrom(const QString &word)
{
    return statewords::stateOf(kRunWords, word);
}

} // namespace oe
