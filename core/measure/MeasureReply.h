#pragma once

#include "measure/MeasurePlan.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace oe {

// One document as the server measured it (MeasureProjection's form), read back: its size, its
// _id element, and one record per plan summary. `explained()` says whether the records account
// for the document as the plan expects; a document they do not is read whole instead (the live
// source's second look), and `whole()` gives it the form the profile walks.
struct MeasureReply
{
    struct Record
    {
        enum class Kind
        {
            Missing,      // the path is not there
            ThroughArray, // an object on the way is an array: the record cannot stand for it
            Value,        // a value that is no array
            Array,
        };
        Kind kind = Kind::Missing;
        std::uint32_t types = 0;   // Value: its type's bit; Array: its elements' bits
        bool typesKnown = true;    // Array: false when elements of an unlearnt type came
        std::uint64_t length = 0;  // Array: its elements
        std::uint64_t wrapped = 0; // $bsonSize({x: value}): the value's bytes + 8
        std::vector<std::vector<std::uint64_t>> childLengths; // per plan child, its arrays
        // The bytes of the value's element in its document (type byte, key, NUL, value).
        std::uint64_t elementBytes(std::string_view key) const
        {
            return 2 + key.size() + wrapped - 8;
        }
    };

    std::uint64_t size = 0;
    std::uint32_t idOffset = 0; // the _id element within the reply (0: none)
    std::uint32_t idLength = 0; // its bytes, type byte and key included
    std::vector<Record> records;

    // Nullopt, with the problem in one line, when the bytes are not a reply to `plan`'s
    // projection. A document read whole ({s, d: {w: document}}) is not one either: see isWhole.
    static std::optional<MeasureReply> parse(const std::uint8_t *data, std::uint32_t length,
                                             const MeasurePlan &plan, QString *problem);
    // True when every record stands for its array and the document's bytes outside them stay
    // within what the plan learnt.
    bool explained(const MeasurePlan &plan) const;

    // {_id, s: size, d: {w: document}}: a document read whole, in the form ProfileBuilder walks.
    static QByteArray whole(const std::uint8_t *document, std::uint32_t length);
    static bool isWhole(const std::uint8_t *data, std::uint32_t length);
    // The document's longest array at each of the plan's array nodes (MeasurePlan::arrayNodes;
    // 0 where it has none there): what the tails of a scan hold it by.
    std::vector<std::uint64_t> longestPerNode(const MeasurePlan &plan) const;
    // The bytes of a whole `document` outside the plan's arrays (the elements at its paths,
    // where an object leads there) and its _id: what explained() holds to restBytesLimit.
    static std::uint64_t restOf(const std::uint8_t *document, std::uint32_t length,
                                const MeasurePlan &plan);
    // The document size a reply (either form) carries; 0 when it has none.
    static std::uint32_t sizeOf(const std::uint8_t *data, std::uint32_t length);
};

} // namespace oe
