#pragma once

// A journal's states as the words its documents hold ("applying", "rolled_back", …), for every
// journaled run (the split's JournalState, the rewrites' RewriteState): one table per enum,
// read both ways.

#include <QLatin1String>
#include <QString>

#include <array>
#include <cstddef>
#include <optional>
#include <utility>

namespace oe::statewords {

template <typename State, std::size_t N>
using Table = std::array<std::pair<State, const char *>, N>;

// The word of `state` ("" for one the table lacks).
template <typename State, std::size_t N>
constexpr const char *wordOf(const Table<State, N> &words, State state)
{
    for (const auto &[s, word] : words)
        if (s == state)
            return word;
    return "";
}

// The state `word` names, or nothing for a word the table lacks (a newer build's).
template <typename State, std::size_t N>
std::optional<State> stateOf(const Table<State, N> &words, const QString &word)
{
    for (const auto &[s, w] : words)
        if (word == QLatin1String(w))
            return s;
    return std::nullopt;
}

} // namespace oe::statewords
