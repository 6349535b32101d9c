#include "mongo/internal/ExactMatch.h"

#include "bson/BsonTypes.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace oe {

namespace {

bool isNumber(int type)
{
    return type == BSON_TYPE_DOUBLE || type == BSON_TYPE_INT32 || type == BSON_TYPE_INT64 ||
           type == BSON_TYPE_DECIMAL128;
}

// The elements of a container value (a document or an array), raw, in order.
std::vector<QByteArray> elementsOf(const QByteArray &raw)
{
    std::vector<QByteArray> out;
    BsonDocument holder;
    bson_iter_t it, child;
    if (!bsonraw::append(holder.get(), "v", 1, raw) ||
        !bson_iter_init_find(&it, holder.get(), "v") || !bson_iter_recurse(&it, &child))
        return out;
    while (bson_iter_next(&child))
        out.push_back(bsonraw::valueOf(&child));
    return out;
}

// The text $toString gives a double zero or a decimal (the same IEEE 754 text the server
// writes); empty for every other value, which {$eq, $type} proves exactly.
QByteArray textProof(const QByteArray &raw)
{
    const int type = int(std::uint8_t(raw.at(0)));
    BsonDocument holder;
    bson_iter_t it;
    if (!bsonraw::append(holder.get(), "v", 1, raw) || !bson_iter_init_find(&it, holder.get(), "v"))
        return {};
    if (type == BSON_TYPE_DOUBLE) {
        const double value = bson_iter_double(&it);
        if (value != 0.0)
            return {};
        return std::signbit(value) ? QByteArray("-0") : QByteArray("0");
    }
    if (type == BSON_TYPE_DECIMAL128) {
        bson_decimal128_t decimal;
        char text[BSON_DECIMAL128_STRING];
        if (!bson_iter_decimal128(&it, &decimal))
            return {};
        bson_decimal128_to_string(&decimal, text);
        return QByteArray(text);
    }
    return {};
}

bool needs(const QByteArray &raw)
{
    const int type = int(std::uint8_t(raw.at(0)));
    if (type == BSON_TYPE_DOCUMENT || type == BSON_TYPE_ARRAY)
        return ExactMatch::needed(raw);
    return !textProof(raw).isEmpty();
}

void appendRef(bson_t *out, const char *key, const QByteArray &ref)
{
    bsonraw::append(out, key, -1, ref);
}

QByteArray utf8Value(const QByteArray &text)
{
    BsonDocument holder;
    bson_append_utf8(holder.get(), "v", 1, text.constData(), int(text.size()));
    bson_iter_t it;
    bson_iter_init_find(&it, holder.get(), "v");
    return bsonraw::valueOf(&it);
}

// {$cond: [{$eq: [{$type: ref}, type]}, <then>, <otherwise>]} under `key`: each operator that
// fails on another type ($toString on an object, $objectToArray on an array) is given only its
// own, so that no document makes the guard an error (the server may evaluate the $expr before
// the query's $type, or on a document that holds anything at the path).
template <typename Then, typename Otherwise>
void appendIfType(bson_t *out, const char *key, const QByteArray &ref, const char *type,
                  const Then &then, const Otherwise &otherwise)
{
    bson_t cond, branches, test, eq, typeOf;
    bson_append_document_begin(out, key, -1, &cond);
    bson_append_array_begin(&cond, "$cond", -1, &branches);
    bson_append_document_begin(&branches, "0", -1, &test);
    bson_append_array_begin(&test, "$eq", -1, &eq);
    bson_append_document_begin(&eq, "0", -1, &typeOf);
    appendRef(&typeOf, "$type", ref);
    bson_append_document_end(&eq, &typeOf);
    bson_append_utf8(&eq, "1", -1, type, -1);
    bson_append_array_end(&test, &eq);
    bson_append_document_end(&branches, &test);
    then(&branches, "1");
    otherwise(&branches, "2");
    bson_append_array_end(&cond, &branches);
    bson_append_document_end(out, &cond);
}

// {$eq: [{$toString: ref} where ref is of `type`, text]}
void appendTextCondition(bson_t *out, const std::string &key, const QByteArray &ref,
                         const char *type, const QByteArray &text)
{
    bson_t cond, eq;
    bson_append_document_begin(out, key.c_str(), -1, &cond);
    bson_append_array_begin(&cond, "$eq", -1, &eq);
    appendIfType(
        &eq, "0", ref, type,
        [&](bson_t *at, const char *k) {
            bson_t toString;
            bson_append_document_begin(at, k, -1, &toString);
            appendRef(&toString, "$toString", ref);
            bson_append_document_end(at, &toString);
        },
        [](bson_t *at, const char *k) { bson_append_null(at, k, -1); });
    bson_append_utf8(&eq, "1", -1, text.constData(), int(text.size()));
    bson_append_array_end(&cond, &eq);
    bson_append_document_end(out, &cond);
}

// {$map: {input: <var>, as: t<depth>, in: {$type: "$$t<depth>"}}} equal to the elements' types.
void appendTypesCondition(bson_t *out, const std::string &key, const std::string &var,
                          const std::vector<QByteArray> &elements, int depth)
{
    const std::string each = "t" + std::to_string(depth);
    const std::string eachRef = "$$" + each;
    bson_t cond, eq, map, spec, type, names;
    bson_append_document_begin(out, key.c_str(), -1, &cond);
    bson_append_array_begin(&cond, "$eq", -1, &eq);
    bson_append_document_begin(&eq, "0", -1, &map);
    bson_append_document_begin(&map, "$map", -1, &spec);
    bson_append_utf8(&spec, "input", -1, ("$$" + var).c_str(), -1);
    bson_append_utf8(&spec, "as", -1, each.c_str(), -1);
    bson_append_document_begin(&spec, "in", -1, &type);
    bson_append_utf8(&type, "$type", -1, eachRef.c_str(), -1);
    bson_append_document_end(&spec, &type);
    bson_append_document_end(&map, &spec);
    bson_append_document_end(&eq, &map);
    bson_append_array_begin(&eq, "1", -1, &names);
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const int t = int(std::uint8_t(elements[i].at(0)));
        const int bitIndex = t == BSON_TYPE_MAXKEY ? 20 : t == BSON_TYPE_MINKEY ? 21 : t;
        bsonraw::appendText(&names, std::to_string(i).c_str(), BsonTypes::name(bitIndex));
    }
    bson_append_array_end(&eq, &names);
    bson_append_array_end(&cond, &eq);
    bson_append_document_end(out, &cond);
}

// {$map: {input: {$objectToArray: ref}, as: e<depth>, in: "$$e<depth>.v"}}: a document's values
// by position, whatever their names.
QByteArray valuesOfDocument(const QByteArray &ref, int depth)
{
    const std::string each = "e" + std::to_string(depth);
    BsonDocument holder;
    bson_t value, map, toArray;
    bson_append_document_begin(holder.get(), "v", 1, &value);
    bson_append_document_begin(&value, "$map", -1, &map);
    appendIfType(
        &map, "input", ref, "object",
        [&](bson_t *at, const char *k) {
            bson_append_document_begin(at, k, -1, &toArray);
            appendRef(&toArray, "$objectToArray", ref);
            bson_append_document_end(at, &toArray);
        },
        [](bson_t *at, const char *k) {
            bson_t none;
            bson_append_array_begin(at, k, -1, &none);
            bson_append_array_end(at, &none);
        });
    bson_append_utf8(&map, "as", -1, each.c_str(), -1);
    bson_append_utf8(&map, "in", -1, ("$$" + each + ".v").c_str(), -1);
    bson_append_document_end(&value, &map);
    bson_append_document_end(holder.get(), &value);
    bson_iter_t it;
    bson_iter_init_find(&it, holder.get(), "v");
    return bsonraw::valueOf(&it);
}

// {$arrayElemAt: ["$$<var>", i]}
QByteArray elementRef(const std::string &var, std::size_t i)
{
    BsonDocument holder;
    bson_t value, at;
    bson_append_document_begin(holder.get(), "v", 1, &value);
    bson_append_array_begin(&value, "$arrayElemAt", -1, &at);
    bson_append_utf8(&at, "0", -1, ("$$" + var).c_str(), -1);
    bson_append_int64(&at, "1", -1, std::int64_t(i));
    bson_append_array_end(&value, &at);
    bson_append_document_end(holder.get(), &value);
    bson_iter_t it;
    bson_iter_init_find(&it, holder.get(), "v");
    return bsonraw::valueOf(&it);
}

void appendConditions(bson_t *out, int *index, const QByteArray &ref, const QByteArray &raw,
                      int depth);

// {$let: {vars: {v<depth>: elements}, in: {$and: [types, each element's own proof...]}}}
void appendContainerCondition(bson_t *out, int *index, const QByteArray &ref, const QByteArray &raw,
                              int depth)
{
    const bool document = std::uint8_t(raw.at(0)) == BSON_TYPE_DOCUMENT;
    const std::string var = "v" + std::to_string(depth);
    const std::vector<QByteArray> elements = elementsOf(raw);
    bson_t cond, let, vars, in, all;
    bson_append_document_begin(out, std::to_string((*index)++).c_str(), -1, &cond);
    bson_append_document_begin(&cond, "$let", -1, &let);
    bson_append_document_begin(&let, "vars", -1, &vars);
    if (document)
        appendRef(&vars, var.c_str(), valuesOfDocument(ref, depth));
    else // an array's elements, or none where the value is no array
        appendIfType(
            &vars, var.c_str(), ref, "array",
            [&](bson_t *at, const char *k) { appendRef(at, k, ref); },
            [](bson_t *at, const char *k) {
                bson_t none;
                bson_append_array_begin(at, k, -1, &none);
                bson_append_array_end(at, &none);
            });
    bson_append_document_end(&let, &vars);
    bson_append_document_begin(&let, "in", -1, &in);
    bson_append_array_begin(&in, "$and", -1, &all);
    int inner = 0;
    appendTypesCondition(&all, std::to_string(inner++), var, elements, depth);
    for (std::size_t i = 0; i < elements.size(); ++i)
        if (needs(elements[i]))
            appendConditions(&all, &inner, elementRef(var, i), elements[i], depth + 1);
    bson_append_array_end(&in, &all);
    bson_append_document_end(&let, &in);
    bson_append_document_end(&cond, &let);
    bson_append_document_end(out, &cond);
}

void appendConditions(bson_t *out, int *index, const QByteArray &ref, const QByteArray &raw,
                      int depth)
{
    const int type = int(std::uint8_t(raw.at(0)));
    if (type == BSON_TYPE_DOCUMENT || type == BSON_TYPE_ARRAY) {
        if (ExactMatch::needed(raw))
            appendContainerCondition(out, index, ref, raw, depth);
        return;
    }
    const QByteArray text = textProof(raw);
    if (!text.isEmpty())
        appendTextCondition(out, std::to_string((*index)++), ref,
                            type == BSON_TYPE_DOUBLE ? "double" : "decimal", text);
}

} // namespace

ExactMatch::ExactMatch()
{
    bson_init(&m_conditions);
}

ExactMatch::~ExactMatch()
{
    bson_destroy(&m_conditions);
}

bool ExactMatch::needed(const QByteArray &raw)
{
    if (raw.isEmpty())
        return false;
    const int type = int(std::uint8_t(raw.at(0)));
    if (isNumber(type))
        return true;
    if (type != BSON_TYPE_DOCUMENT && type != BSON_TYPE_ARRAY)
        return false;
    for (const QByteArray &element : elementsOf(raw))
        if (needed(element))
            return true;
    return false;
}

void ExactMatch::add(const QByteArray &fieldPath, const QByteArray &raw)
{
    if (raw.isEmpty())
        return;
    appendConditions(&m_conditions, &m_count, utf8Value(fieldPath), raw, 0);
}

void ExactMatch::appendConditionsTo(bson_t *andArray, int *index) const
{
    bson_iter_t it;
    if (!bson_iter_init(&it, &m_conditions))
        return;
    while (bson_iter_next(&it))
        bson_append_iter(andArray, std::to_string((*index)++).c_str(), -1, &it);
}

void ExactMatch::appendTo(bson_t *filter) const
{
    if (empty())
        return;
    bson_t expr, all;
    int index = 0;
    bson_append_document_begin(filter, "$expr", -1, &expr);
    bson_append_array_begin(&expr, "$and", -1, &all);
    appendConditionsTo(&all, &index);
    bson_append_array_end(&expr, &all);
    bson_append_document_end(filter, &expr);
}

} // namespace oe
