#pragma once

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace oe {

// What a scan counted in the cluster asks of each document to count its shape (ShapePlanner
// learns it from the discovery read): the field paths outside arrays, each with the BSON types
// the discovery saw there, and for a path that holds arrays the scalar types of their elements. A
// document is *regular* when it has no field but these (every object closed), each of one of its
// learnt types, arrays of their element types only, and is no larger than the big-scalar limit
// (so none of its strings or binaries is a big scalar). A regular document's shape is then a
// function of the `$type` at each path, its measurement and the bytes of its strings and
// binaries; the server groups by those, and the rest are read whole. `regular()` checks all
// but the types the tallies' $type tuple sees (a path outside arrays, with no array below it):
// a tally row of a type the plan does not know is one of irregular documents, read whole too.
struct ShapePlan
{
    struct Path
    {
        std::vector<std::string> segments;
        std::uint32_t types = 0;       // BsonTypes bits
        std::uint32_t elementType = 0; // where it holds arrays: its elements' bits (0: none seen)
        int parent = -1;               // the object path holding it; -1: the document
        // Where it holds arrays: MeasurePlan::summaries' index; in arrays' elements, its child's
        // in the parent's summary (the records' lengths of its arrays).
        int summary = -1;
        // A schema version field (VersionTally): the values the discovery saw there (raw, as
        // DocumentId's). A regular document holds one of them or a value no version has (an
        // object, a boolean); the tallies group by the value itself (`v`, in versionPaths' order).
        bool version = false;
        std::vector<std::string> versions;
        // A field of the objects an array path holds (`parent`, whose elementType is objects):
        // the tallies count, per type, the elements holding it (`o`).
        bool inElements = false;
        bool operator==(const Path &) const = default;
        // "$a.b": the path as an aggregation expression (its names are plain).
        QString expression() const;
        bool holds(std::uint32_t bit) const { return (types & bit) != 0; }
        // Arrays of more than one element type: the tallies count each type's elements.
        bool mixedElements() const { return (elementType & (elementType - 1)) != 0; }
    };
    std::vector<Path> paths; // parents before their children; not the _id (the tallies' own)
    std::uint64_t sizeLimit = 0;
    // The types a version value may have (VersionTally: numbers, short strings): doubles,
    // strings, 32- and 64-bit integers (decimals are refused: the server groups 1.0 with 1.00).
    static constexpr std::uint32_t kVersionTypes =
        1u << 0x01 | 1u << 0x02 | 1u << 0x10 | 1u << 0x12;

    bool isEmpty() const { return paths.empty(); }
    // The paths whose values' bytes vary within a type (strings and binaries), but version
    // fields (their values are the tallies'): the tallies sum their lengths, `x<index>`.
    std::vector<int> variablePaths() const;
    // The paths whose arrays hold elements of more than one type (the tallies' `c`, each an
    // array of its types' counts in bit order, in this order).
    std::vector<int> mixedPaths() const;
    // The paths holding arrays of objects (each one entry past the paths in the tallies' $type
    // tuple: "object" where the array has elements, else "missing"), and the fields of their
    // elements (the tallies' `o`: each an array of the elements holding it per type, in bit
    // order), in this order.
    std::vector<int> objectArrays() const;
    std::vector<int> elementFields() const;
    // The fields of array path `a`'s elements that hold arrays.
    std::vector<int> nestedArrays(int a) const;
    // The schema version fields (the tallies' `v`, in this order).
    std::vector<int> versionPaths() const;
    // The paths holding objects (mostKeys' tails, `k<index>` in this order).
    std::vector<int> objectPaths() const;
    // {$and: [{$jsonSchema: …}, {$expr: {$lte: [{$bsonSize: "$$ROOT"}, sizeLimit]}}]}, as BSON:
    // the regular documents and those whose only irregularity is a type the tuple sees.
    QByteArray regular() const;
    bool operator==(const ShapePlan &) const = default;
};

} // namespace oe
