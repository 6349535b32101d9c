#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace oe {

// What a server-side measurement summarises: the array paths whose arrays the server replaces
// by a few numbers (length, bytes, element types, and for the fields of their elements that
// hold arrays, their values, bytes, types and lengths). Everything else of a
// document travels as it is, so paths the plan does not know are still walked exactly. A value
// type, saved with a resumable scan's state so a resumed scan measures as it began.
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
        bool operator==(const Summary &) const = default;
        std::string path() const;
    };

    std::vector<Summary> summaries; // sorted by path; none is inside another's array

    bool isEmpty() const { return summaries.empty(); }
    bool operator==(const MeasurePlan &) const = default;
    // "activities (3 fields), meta.tags": for notes.
    QString describe() const;
    // A field name the server can be asked about in a `$` path and an object key: not empty,
    // no dot, no leading `$`, no NUL (other names make a path move whole instead).
    static bool plainName(const std::string &name);

    // A versioned binary form for saved scan states; nullopt when `bytes` are not one.
    QByteArray encode() const;
    static std::optional<MeasurePlan> decode(const QByteArray &bytes);
};

} // namespace oe
