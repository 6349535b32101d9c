#pragma once

#include "analysis/CollectionProfile.h"
#include "measure/MeasurePlan.h"

namespace oe {

// Which arrays the server measures, learnt from a discovery read (a sample whose arrays were
// cut short): every array path that is not inside another array, whose names are plain, whose
// elements hold no arrays below their own fields, and that holds no array directly. Of the
// elements' fields, those that hold arrays are measured (children: their lengths); the others
// are not. An array path the discovery saw that cannot be measured so is named in
// `unmeasurable` (and the plan is not used); one it missed is found when its bytes make a
// document heavier than the plan explains (restBytesLimit, elementBytesLimit).
class MeasurePlanner
{
public:
    static MeasurePlan plan(const CollectionProfile &discovery);
};

} // namespace oe
