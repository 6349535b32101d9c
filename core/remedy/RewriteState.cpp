#include "remedy/RewriteState.h"

#include <array>
#include <utility>

namespace oe {

namespace {

constexpr std::array<std::pair<RewriteState, const char *>, 4> kRunWords{{
    {RewriteState::Applying, "applying"},
    {RewriteState::Applied, "applied"},
    {RewriteState::RollingBack, "rolling_back"},
    {RewriteState::RolledBack, "rolled_back"},
}};

constexpr std::array<std::pair<RewriteEntryState, const char *>, 6> kEntryWords{{
    {RewriteEntryState::Pending, "pending"},
    {RewriteEntryState::Applied, "applied"},
    {RewriteEntryState::ChangedSince, "changed_since"},
    {RewriteEntryState::Deleted, "deleted"},
    {RewriteEntryState::RolledBack, "rolled_back"},
    {RewriteEntryState::Kept, "kept"},
}};

template <typename State, std::size_t N>
const char *wordOf(const std::array<std::pair<State, const char *>, N> &words, State state)
{
    for (const auto &[s, word] : words)
        if (s == state)
            return word;
    return "";
}

template <typename State, std::size_t N>
std::optional<State> stateOf(const std::array<std::pair<State, const char *>, N> &words,
                             const QString &word)
{
    for (const auto &[s, w] : words)
        if (word == QLatin1String(w))
            return s;
    return std::nullopt;
}

} // namespace

const char *journalWord(RewriteState state)
{
    return wordOf(kRunWords, state);
}

const char *journalWord(RewriteEntryState state)
{
    return wordOf(kEntryWords, state);
}

std::optional<RewriteState> rewriteStateFrom(const QString &word)
{
    return stateOf(kRunWords, word);
}

std::optional<RewriteEntryState> rewriteEntryStateFrom(const QString &word)
{
    return stateOf(kEntryWords, word);
}

} // namespace oe
