#pragma once

#include "analysis/CollectionProfile.h"

#include <cstdint>

namespace oe {

// Finds the objects whose keys are data (one key per day, per user, per id) in a finished
// profile and folds each one's keys into the one path segment "<key>", so such an object is
// reported once (daily_stats.<key>), not as thousands of paths; records every object path's
// distinct and data-like keys (FieldShape). An object's keys are data when at least
// kMinDistinctKeys were told apart and either half of them look like data (KeyPattern:
// numbers, dates, ObjectIds, UUIDs) or an object holds a fifth of them or fewer on average
// (kSparseFactor). It works on the whole profile, after the parts of a parallel or resumed
// scan are absorbed, so the keys of every part count.
class DataKeyFolder
{
public:
    static constexpr std::uint64_t kMinDistinctKeys = 50;
    static constexpr double kSparseFactor = 5.0;

    static void fold(CollectionProfile &profile);
};

} // namespace oe
