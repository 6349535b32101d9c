#pragma once

#include <QByteArray>

// A collection whose shape the tallies count in the cluster (ShapePlan: no fields in arrays'
// elements, one scalar type per array), as a dump of `count` documents: an int _id; a name of
// 1 to 40 characters; an amount (an int, a string in every 997th: a mixed type); codes, 0 to 5
// ints; a profile object {country, verified, score[, since: date]} (a string in every 1,499th);
// a small binary in every 3rd; a null note in every 5th; a long, a decimal, an ObjectId and a
// timestamp in every 11th. Planted besides: a rare field (legacyFlag, 3 documents), a rare
// array path (extras, 2), two strings of 300 KB (big scalars: read whole), a document with 300
// more fields and one nested 40 levels deep, and an empty profile object.
namespace fixtures {

QByteArray flatShapesDump(int count);

} // namespace fixtures
