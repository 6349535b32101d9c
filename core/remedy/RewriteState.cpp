#include "remedy/RewriteState.h"

#include "migration/StateWords.h"

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

} // namespace

const char *journalWord(RewriteState state)
{
    return statewords::wordOf(kRunWords, state);
}

const char *journalWord(RewriteEntryState state)
{
    return statewords::wordOf(kEntryWords, state);
}

std::optional<RewriteState> rewriteStateFrom(const QString &word)
{
    return statewords::stateOf(kRunWords, word);
}

std::optional<RewriteEntryState> rewriteEntryStateFrom(const QString &word)
{
    return statewords::stateOf(kEntryWords, word);
}

} // namespace oe
