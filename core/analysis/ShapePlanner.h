#pragma once

#include "analysis/CollectionProfile.h"
#include "measure/MeasurePlan.h"
#include "measure/ShapePlan.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace oe {

// The shape a scan counted in the cluster can count on the server (ShapePlan), learnt from the
// discovery read beside the measurement plan: every field path it saw outside arrays, with its
// types, and the plan's arrays of one scalar element type. Nullopt, with the reason in `why`,
// where the discovery saw what the tallies cannot stand for: fields in arrays' elements, a type
// whose bytes a tally cannot sum (regular expressions, JavaScript, symbols, DB pointers,
// undefined), an _id that is an object, a name that is not plain, a field where a schema
// version is looked for (`versionFields`, which the discovery's walk watched) of more values than
// a version field has or of decimals. Past kMaxPaths paths, the rarest are left out (their
// documents are not regular: read whole).
class ShapePlanner
{
public:
    static constexpr std::size_t kMaxPaths = 256;
    static std::optional<ShapePlan> plan(const CollectionProfile &discovery,
                                         const MeasurePlan &measure, std::uint64_t bigScalarBytes,
                                         const std::vector<std::string> &versionFields,
                                         QString *why);
};

} // namespace oe
