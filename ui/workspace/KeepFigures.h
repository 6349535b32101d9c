#pragma once

#include <QString>

#include <cstdint>

namespace oe {

class SourceState;

// What a keep moves, in the words every page uses (the Arrays tab, the wizard's Analysis and
// Threshold pages): one computation, the split plan's (SplitPlanner over the analysed
// documents: the figure Split preview, the wizard's Preview and `split --dry-run` give), and
// one formatter (Format::bytes). Until the state's plan is current for the path and keep, the
// analysis' estimate, marked "≈".
class KeepFigures
{
public:
    // The bytes that keeping `keep` elements of `path` moves out of the documents: "14.1 MiB",
    // or "≈ 13.7 MiB" while the plan for them is not yet current.
    static QString bytesMoved(const SourceState &state, const QString &path, std::uint64_t keep);
    // The counters under a keep's box for the state's path and keep: documents over it,
    // elements and bytes that would move, the largest primary after the split. Empty when the
    // state's path cannot be split.
    static QString counters(const SourceState &state);
};

} // namespace oe
