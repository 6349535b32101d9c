#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace oe {

// What a server-side measurement asks of each document: its size and, for each array path of
// the plan, the array's length, bytes and element types (or the value's type and bytes where
// it is no array), and the lengths of the arrays in its elements' fields that hold arrays
// (children). Nothing else of a document travels, unless its figures do not add up to what the
// plan learnt (MeasureReply::explained): then it is read whole. A value type, saved with a
// resumable scan's state so a resumed scan measures as it began.
struct MeasurePlan
{
    struct Child
    {
        std::string name;         // a field of the array's elements
        bool holdsArrays = false; // its values are (sometimes) arrays: their lengths are returned
        bool operator==(const Child &) const = default;
    };
    struct Summary
    {
        std::vector<std::string> segments; // the array path, one field name each
        std::vector<Child> children;       // in the order of the returned records
        // A document whose arrays here average more bytes per element than this comes whole:
        // its elements hold something the plan did not learn (a rare large array, say).
        std::uint64_t elementBytesLimit = 0;
        // BsonTypes bits of the elements the discovery read saw. With one type, the server
        // counts the elements of another; with more, it lists the types present.
        std::uint32_t elementTypes = 0;
        bool operator==(const Summary &) const = default;
        std::string path() const;
        // One element type learnt, no array among them: the server checks for any other.
        bool hasOneElementType() const;
    };

    // How an array's bytes are asked for: $bsonSize({x: array}), which makes the server copy
    // the array into a new document; or the document's size less its size without the array
    // ($unsetField, MongoDB 5.0+), which copies only the rest. Both give the same number (the
    // server does the arithmetic); the second is far cheaper when the array is most of the
    // document, and is chosen for a plan of one array path on a server that has $unsetField
    // (with several, each removal would still copy the others).
    enum class ArrayBytes : std::uint8_t
    {
        Wrapped = 0,
        Removed = 1
    };

    // How a top-level array whose elements the plan learnt to be of one type is checked for
    // elements of another: by an expression per element ($filter on $type, the records' third
    // figure), or, where the scan is a find, by its projection {path: {$elemMatch: {$not:
    // {$type: that type}}}}: the server's matcher, native code and far cheaper per element,
    // returns the field (with the first such element) only where there is one. An aggregation's
    // $project refuses $elemMatch, and a nested path cannot have it.
    // Known: the documents are regular (a ShapePlan's schema holds each array to its one element
    // type: ServerTally), so the check is the constant 0 and costs nothing per element. Never
    // saved (a saved plan is Expression or Projected).
    enum class ElementCheck : std::uint8_t
    {
        Expression = 0,
        Projected = 1,
        Known = 2
    };

    std::vector<Summary> summaries; // sorted by path; none is inside another's array
    ArrayBytes arrayBytes = ArrayBytes::Wrapped;
    ElementCheck elementCheck = ElementCheck::Expression;
    // A document whose bytes outside the plan's arrays (and its _id) exceed this comes whole:
    // it holds something the discovery read did not see (a rare array, say).
    std::uint64_t restBytesLimit = 0;
    // Array paths the discovery read saw that the plan cannot measure (a key with a dot or a
    // leading `$`, arrays two levels down, a path that is an array in some documents and an
    // object holding arrays in others). Not saved: a plan with any is not used.
    std::vector<std::string> unmeasurable;

    bool isEmpty() const { return summaries.empty(); }
    // The paths whose arrays the records measure, in the order a document's walk meets them:
    // each summary's, then its children's. {summary, child} (child -1: the summary's own).
    struct ArrayNode
    {
        int summary = 0;
        int child = -1;
    };
    std::vector<ArrayNode> arrayNodes() const;
    // Whether `s`'s elements are checked by the projection (ElementCheck::Projected, one learnt
    // type, a top-level path whose name is none of the measured document's own fields).
    bool projectsElementCheck(const Summary &s) const;
    bool operator==(const MeasurePlan &) const = default;
    // "activities (3 fields), meta.tags": for notes.
    QString describe() const;
    // A field name the server can be asked about in a `$` path and an object key: not empty,
    // no dot, no leading `$`, no NUL (other names make a path move whole instead).
    static bool plainName(const std::string &name);

    // A versioned binary form for saved scan states; nullopt when `bytes` are not one.
    QByteArray encode() const;
    static std::optional<MeasurePlan> decode(const QByteArray &bytes);
    // True when `bytes` are a plan an older build saved (version 1, whose server replies
    // carried each document's skeleton): a scan it began is resumed client-side.
    static bool isOlderFormat(const QByteArray &bytes);
};

} // namespace oe
