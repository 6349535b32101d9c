#pragma once

#include "measure/MeasureReply.h"
#include "measure/ShapePlan.h"

#include <QByteArray>
#include <QString>

#include <bson/bson.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace oe {

// The skeleton of the regular documents one row of the tallies counts (ServerTally): a BSON
// document with their fields (the ShapePlan's paths of the types the row's key names) holding
// empty values (0, "", an empty binary, ...), its arrays as long as the row's records say, of
// their elements' type. Its walk counts what their walks count, but for the bytes their
// strings, binaries, arrays and _id hold past the skeleton's (`elementBytes` and
// `arrayValueBytes` say the skeleton's own, for the difference). Also the figures of the shape's
// tails, as the server's shape candidates reckon them (TallyPipelines).
struct ShapeSkeleton
{
    QByteArray bytes;
    std::vector<std::uint64_t> elementBytes;    // per path: its element in the skeleton; 0: none
    std::vector<std::uint64_t> arrayValueBytes; // per path holding an array: the array's bytes
    std::vector<std::uint64_t> keys;            // per path holding an object: its keys
    std::uint64_t idElementBytes = 0;
    std::uint64_t fields = 0;
    std::uint64_t depth = 1;

    // `types`: per path of `shape` the BsonTypes bit the row's key names there (0: missing);
    // `key` the row's key, for its version values (`v`, in versionPaths' order) and its mixed
    // arrays' counts of each element type (`c`, in mixedPaths' order); `idTypeBit` the _id's
    // (0: none). Nullopt, with the reason, where they and the records disagree (an array the
    // records do not measure).
    static std::optional<ShapeSkeleton> build(const ShapePlan &shape,
                                              const std::vector<std::uint32_t> &types,
                                              const bson_t *key, std::uint32_t idTypeBit,
                                              const MeasureReply &reply, QString *problem);
};

} // namespace oe
