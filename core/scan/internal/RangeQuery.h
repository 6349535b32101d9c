#pragma once

#include "scan/IdRangePlan.h"

#include <QByteArray>

namespace oe {

// The `_id` conditions of a range plan as BSON documents (the bytes LiveQuery::idCondition
// takes): typed range i, optionally only after a value already read (a resumed range), and the
// leftover (the `_id`s no typed range matches).
class RangeQuery
{
public:
    static QByteArray typedRange(const IdRangePlan &plan, int range, const QByteArray &after = {});
    static QByteArray leftover(const IdRangePlan &plan);
};

} // namespace oe
