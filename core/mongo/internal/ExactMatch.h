#pragma once

// Internal to core: a guard's proof that a value is the same bytes as read, not only the same
// value. MongoDB's $eq compares numbers by value (int 5 = long 5 = 5.0, 0.0 = -0.0, decimal
// 1.0 = 1.00), in a sub-document or an array as at the top, so a guard of {$eq: v} lets an
// application's type-only write be overwritten. ExactMatch adds, for each value that holds a
// number, the $expr conditions that close that gap: the $type of every element of each
// container on the way to a number (by position: no field name reaches the expression), the
// sign of a double's zero and a decimal's digits ($toString). A value without numbers needs
// nothing beyond $eq and $type (strings compare byte for byte in the simple collation).
// The operators are MongoDB 4.0's ($expr, $let, $map, $objectToArray, $type, $toString);
// a server without them (FerretDB) gets none, and its guards compare by value (said by the run).
// What it still does not see: a NaN's payload (every NaN is one value to $eq), a string
// turned into a deprecated symbol.

#include <QByteArray>

#include <bson/bson.h>

namespace oe {

class ExactMatch
{
public:
    ExactMatch();
    ~ExactMatch();
    ExactMatch(const ExactMatch &) = delete;
    ExactMatch &operator=(const ExactMatch &) = delete;

    // Conditions proving the value at `fieldPath` ("$body", "$a.b", "$$ROOT": an aggregation
    // field path) is of `raw`'s bytes where {$eq: raw, $type: raw's type} holds already.
    void add(const QByteArray &fieldPath, const QByteArray &raw);
    bool empty() const { return m_count == 0; }
    // {$expr: {$and: [...]}} appended to `filter` (nothing when empty).
    void appendTo(bson_t *filter) const;
    // The conditions appended to an $and array being built (`index`: its next key).
    void appendConditionsTo(bson_t *andArray, int *index) const;

    // True when `raw` (a value: type byte, then its bytes) holds a number anywhere, so that
    // {$eq: raw} alone would let through a value of other bytes.
    static bool needed(const QByteArray &raw);

private:
    bson_t m_conditions; // an array's elements "0", "1", ...
    int m_count = 0;
};

} // namespace oe
