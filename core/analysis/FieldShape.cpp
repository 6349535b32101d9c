#include "analysis/FieldShape.h"

#include <algorithm>
#include <limits>

namespace oe {

std::vector<ShapeExample> FieldShape::examplesOf(int slot, std::size_t count) const
{
    std::vector<ShapeExample> out;
    for (const ShapeExample &e : examples)
        if (e.slot == slot && out.size() < count)
            out.push_back(e);
    return out;
}

namespace {
bool before(const ShapeExample &a, const ShapeExample &b)
{
    return a.slot != b.slot ? a.slot < b.slot : a.docIndex < b.docIndex;
}

int heldOf(const std::vector<ShapeExample> &examples, int slot)
{
    int have = 0;
    for (const ShapeExample &e : examples)
        have += e.slot == slot;
    return have;
}
} // namespace

bool FieldShape::wantsExample(int slot) const
{
    return heldOf(examples, slot) < kExamplesPerSlot;
}

bool FieldShape::addExample(ShapeExample &&e)
{
    return addExampleTo(examples, std::move(e));
}

bool FieldShape::addExampleTo(std::vector<ShapeExample> &examples, ShapeExample &&e)
{
    const auto at = std::lower_bound(examples.begin(), examples.end(), e, before);
    if (at != examples.end() && at->slot == e.slot && at->docIndex == e.docIndex)
        return false;
    if (heldOf(examples, e.slot) >= kExamplesPerSlot) {
        // Full: an earlier document (one offered out of order) takes the last one's place.
        auto last = std::upper_bound(
            examples.begin(), examples.end(),
            ShapeExample{e.slot, std::numeric_limits<std::uint64_t>::max(), {}}, before);
        if (last == examples.begin() || (--last)->slot != e.slot || last->docIndex < e.docIndex)
            return false;
        examples.erase(last);
        examples.insert(std::lower_bound(examples.begin(), examples.end(), e, before),
                        std::move(e));
        return true;
    }
    examples.insert(at, std::move(e));
    return true;
}

namespace {
void mergeTail(CandidateTail &into, CandidateTail &&from, bool intoEmpty)
{
    if (intoEmpty)
        into = std::move(from);
    else
        into.merge(std::move(from));
}
} // namespace

// Examples stay the earliest documents of each slot, whichever part saw them (so the result
// does not depend on how the documents were shared between threads).
void FieldShape::absorb(FieldShape &&other)
{
    types.merge(other.types);
    elementTypes.merge(other.elementTypes);
    if (!other.examples.empty()) {
        for (ShapeExample &e : other.examples)
            examples.push_back(std::move(e));
        std::stable_sort(examples.begin(), examples.end(), before);
        std::vector<ShapeExample> kept;
        for (ShapeExample &e : examples) {
            const bool repeat =
                !kept.empty() && kept.back().slot == e.slot && kept.back().docIndex == e.docIndex;
            const auto have = std::count_if(
                kept.begin(), kept.end(), [&](const ShapeExample &k) { return k.slot == e.slot; });
            if (!repeat && have < kExamplesPerSlot)
                kept.push_back(std::move(e));
        }
        examples = std::move(kept);
    }
    const bool noObjects = keyCounts.count() == 0;
    keyCounts.merge(other.keyCounts);
    distinctKeys = std::max(distinctKeys, other.distinctKeys);
    keysPastCap += other.keysPastCap;
    dataLikeKeys = std::max(dataLikeKeys, other.dataLikeKeys);
    keysAsData = keysAsData || other.keysAsData;
    mergeTail(mostKeys, std::move(other.mostKeys), noObjects);
    const bool noBig = bigValues == 0;
    bigValues += other.bigValues;
    mergeTail(biggestValues, std::move(other.biggestValues), noBig);
}

} // namespace oe
