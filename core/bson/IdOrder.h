#pragma once

#include <QByteArray>

namespace oe {

// MongoDB's order of `_id` values, for values held as raw BSON (a type byte followed by the
// value's bytes, as bsonraw::valueOf gives them). Values of different types order by the
// server's canonical type rank (null < numbers < strings < objects < ... < ObjectId < bool <
// date ...); values of one type class by value, as the server compares them without a
// collation. Range scans cut the `_id` space with it and split the rest (the `_id`s of other
// types) into those that sort before the cut type and those after.
class IdOrder
{
public:
    // The canonical rank of a BSON type code (numbers share one, strings and symbols share
    // one); types the server does not rank get the rank of MaxKey.
    static int typeRank(int bsonType);
    // Negative, zero or positive as a sorts before, with, or after b.
    static int compare(const QByteArray &a, const QByteArray &b);
    // Whether ranges can be cut between values of this type: ObjectId, numbers (not
    // decimal128), strings and dates, the `_id` types that occur in practice.
    static bool cuttable(int bsonType);
    // The raw `_id` of a whole BSON document; empty when it has none or is malformed.
    static QByteArray idOf(const unsigned char *document, unsigned length);
};

} // namespace oe
