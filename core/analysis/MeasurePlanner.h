#pragma once

#include "analysis/CollectionProfile.h"
#include "measure/MeasurePlan.h"

namespace oe {

// Which arrays the server summarises, learnt from a discovery read (a sample whose arrays were
// cut short): every array path that is not inside another array, whose names are plain, whose
// elements hold no arrays below their own fields, and that holds no array directly. The rest
// of a document travels as it is, so a path the discovery missed is still walked exactly. Of
// the elements' fields, those that hold arrays are measured (children); the others are not.
class MeasurePlanner
{
public:
    static MeasurePlan plan(const CollectionProfile &discovery);
};

} // namespace oe
