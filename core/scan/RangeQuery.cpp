#include "scan/internal/RangeQuery.h"

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

namespace oe {

namespace {

// {_id: {op: value}} appended to `array` under `key`.
void appendComparison(bson_t *array, const char *key, const char *op, const QByteArray &value)
{
    bson_t clause, cond;
    bson_append_document_begin(array, key, -1, &clause);
    bson_append_document_begin(&clause, "_id", 3, &cond);
    bsonraw::append(&cond, op, -1, value);
    bson_append_document_end(&clause, &cond);
    bson_append_document_end(array, &clause);
}

// {<combinator>: [{_id: {$lt: pivot}}, {_id: {$gte: pivot}}]}: with $or every _id of the cut
// type class (the server brackets comparisons by type), with $nor every other one.
void appendWholeType(bson_t *out, const char *combinator, const QByteArray &pivot)
{
    bson_t array;
    bson_append_array_begin(out, combinator, -1, &array);
    appendComparison(&array, "0", "$lt", pivot);
    appendComparison(&array, "1", "$gte", pivot);
    bson_append_array_end(out, &array);
}

} // namespace

QByteArray RangeQuery::typedRange(const IdRangePlan &plan, int range, const QByteArray &after)
{
    BsonDocument doc;
    if (plan.isWhole()) // every _id, of mixed types: a resumed one starts again
        return doc.bytes();
    bson_t all;
    bson_append_array_begin(doc.get(), "$and", 4, &all);
    int clause = 0;
    auto key = [&] { return std::to_string(clause++); };
    const auto n = int(plan.boundaries.size());
    if (n == 0) {
        bson_t whole;
        bson_append_document_begin(&all, key().c_str(), -1, &whole);
        appendWholeType(&whole, "$or", plan.pivot);
        bson_append_document_end(&all, &whole);
    } else {
        if (range > 0)
            appendComparison(&all, key().c_str(), "$gte", plan.boundaries[std::size_t(range - 1)]);
        if (range < n)
            appendComparison(&all, key().c_str(), "$lt", plan.boundaries[std::size_t(range)]);
    }
    if (!after.isEmpty())
        appendComparison(&all, key().c_str(), "$gt", after);
    bson_append_array_end(doc.get(), &all);
    return doc.bytes();
}

QByteArray RangeQuery::leftover(const IdRangePlan &plan)
{
    BsonDocument doc;
    if (!plan.isWhole())
        appendWholeType(doc.get(), "$nor", plan.pivot);
    return doc.bytes();
}

} // namespace oe
