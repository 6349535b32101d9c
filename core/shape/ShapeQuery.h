#pragma once

#include "shape/ShapeFlag.h"

#include <QString>

namespace oe {

// The query that finds a flag's documents, as relaxed extended JSON for the Documents tab's
// filter (and mongosh):
// - a rare field: {path: {$exists: true}}, every document that has it;
// - a flag of one schema version's documents: the same after {version_field: value} (or
//   {version_field: {$exists: false}} for the documents without a version);
// - a mixed type: {path: {$type: "string"}}; among array elements, {path: {$elemMatch:
//   {$type: "string"}}};
// - the rest (keys used as data, big scalars, many fields, deep nesting), and any path no
//   filter can name (through keys used as data, past the cap of keys, a name starting with
//   '$', an empty name): the flag's example documents, {_id: {$in: [...]}}.
// Names are data: they are written as JSON strings by libbson, never pasted into the text.
struct ShapeQuery
{
    enum class Reach
    {
        Every,    // finds every document behind the flag
        Examples, // finds the flag's example documents only
        None      // no query: the examples have no _id
    };
    QString filter;
    Reach reach = Reach::None;

    static ShapeQuery of(const ShapeFlag &flag);
    // True when `path` can stand as a filter's key: dotted names, none empty, none starting
    // with '$', none standing for many keys ("<key>", "*").
    static bool nameable(const std::string &path);
};

} // namespace oe
