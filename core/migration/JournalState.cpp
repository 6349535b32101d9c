#include "migration/JournalState.h"

#include <array>
#include <utility>

namespace oe {

namespace {

constexpr std::array kEntryWords{std::pair{EntryState::Pending, "pending"},
                                 std::pair{EntryState::Split, "split"},
                                 std::pair{EntryState::RolledBack, "rolled_back"}};
constexpr std::array kRunWords{std::pair{RunState::Applying, "applying"},
                               std::pair{RunState::Applied, "applied"},
                               std::pair{RunState::RollingBack, "rolling_back"},
                               std::pair{RunState::RolledBack, "rolled_back"}};

template <typename Words, typename State> const char *wordOf(const Words &words, State state)
{
    for (const auto &[s, word] : words)
        if (s == state)
            return word;
    return "";
}

template <typename State, typename Words>
std::optional<State> stateOf(const Words &words, const QString &word)
{
    for (const auto &[s, w] : words)
        if (word == QLatin1String(w))
            return s;
    return std::nullopt;
}

} // namespace

const char *journalWord(EntryState state)
{
    return wordOf(kEntryWords, state);
}

const char *journalWord(RunState state)
{
    return wordOf(kRunWords, state);
}

std::optional<EntryState> entryStateFrom(const QString &word)
{
    return stateOf<EntryState>(kEntryWords, word);
}

std::optional<RunState> runStateFrom(const QString &word)
{
    return stateOf<RunState>(kRunWords, word);
}

} // namespace oe
