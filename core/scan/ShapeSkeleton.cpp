#include "scan/ShapeSkeleton.h"

#include "bson/BsonTypes.h"
#include "bson/internal/BsonDocument.h"

#include <bson/bson.h>

#include <algorithm>
#include <string>

namespace oe {

namespace {

int indexOf(std::uint32_t bit)
{
    for (int i = 0; i < 32; ++i)
        if (bit == (1u << i))
            return i;
    return -1;
}

// An empty value of the type at bit index `type`; false for a type without one here.
bool appendEmpty(bson_t *into, const char *key, int keyLength, int type)
{
    static const bson_oid_t zeroOid{};
    bson_decimal128_t zero{};
    switch (type) {
    case 0x01:
        return bson_append_double(into, key, keyLength, 0.0);
    case 0x02:
        return bson_append_utf8(into, key, keyLength, "", 0);
    case 0x05:
        return bson_append_binary(into, key, keyLength, BSON_SUBTYPE_BINARY, nullptr, 0);
    case 0x07:
        return bson_append_oid(into, key, keyLength, &zeroOid);
    case 0x08:
        return bson_append_bool(into, key, keyLength, false);
    case 0x09:
        return bson_append_date_time(into, key, keyLength, 0);
    case 0x0A:
        return bson_append_null(into, key, keyLength);
    case 0x10:
        return bson_append_int32(into, key, keyLength, 0);
    case 0x11:
        return bson_append_timestamp(into, key, keyLength, 0, 0);
    case 0x12:
        return bson_append_int64(into, key, keyLength, 0);
    case 0x13:
        return bson_append_decimal128(into, key, keyLength, &zero);
    case 20:
        return bson_append_maxkey(into, key, keyLength);
    case 21:
        return bson_append_minkey(into, key, keyLength);
    default:
        return false;
    }
}

class Builder
{
public:
    Builder(const ShapePlan &shape, const std::vector<std::uint32_t> &types, const bson_t *key,
            const MeasureReply &reply, ShapeSkeleton &out)
        : m_shape(shape), m_types(types), m_key(key), m_reply(reply), m_out(out)
    {
    }

    // The fields of `parent` (-1: the document) into `into`.
    bool fields(bson_t *into, int parent, std::uint64_t depth)
    {
        for (std::size_t i = 0; i < m_shape.paths.size(); ++i) {
            const ShapePlan::Path &p = m_shape.paths[i];
            if (p.parent != parent || m_types[i] == 0)
                continue;
            const std::uint32_t before = into->len;
            if (!value(into, i, depth + 1))
                return false;
            m_out.elementBytes[i] = into->len - before;
            ++m_out.fields;
            if (parent >= 0)
                ++m_out.keys[std::size_t(parent)];
        }
        return true;
    }

    QString problem;

private:
    bool value(bson_t *into, std::size_t i, std::uint64_t depth)
    {
        const ShapePlan::Path &p = m_shape.paths[i];
        const std::string &key = p.segments.back();
        const int keyLength = int(key.size());
        const int type = indexOf(m_types[i]);
        if (m_types[i] == BsonTypes::kDocumentBit) {
            m_out.depth = std::max(m_out.depth, depth + 1);
            bson_t child;
            bson_append_document_begin(into, key.data(), keyLength, &child);
            const bool ok = fields(&child, int(i), depth);
            bson_append_document_end(into, &child);
            return ok;
        }
        if (m_types[i] == BsonTypes::kArrayBit) {
            m_out.depth = std::max(m_out.depth, depth + 1);
            const MeasureReply::Record *r =
                p.summary >= 0 && std::size_t(p.summary) < m_reply.records.size()
                    ? &m_reply.records[std::size_t(p.summary)]
                    : nullptr;
            if (!r || r->kind != MeasureReply::Record::Kind::Array ||
                (r->length > 0 && p.elementType == 0)) {
                problem = QStringLiteral("an array the measurement does not hold");
                return false;
            }
            const bool objects = p.elementType == BsonTypes::kDocumentBit;
            if (objects && r->length > 0)
                m_out.depth = std::max(m_out.depth, depth + 2);
            bson_t array;
            bson_append_array_begin(into, key.data(), keyLength, &array);
            const bool ok =
                objects ? objectElements(&array, i, *r, depth) : elements(&array, i, r->length);
            m_out.arrayValueBytes[i] = array.len;
            bson_append_array_end(into, &array);
            return ok;
        }
        if (p.version && (m_types[i] & ShapePlan::kVersionTypes))
            return versionValue(into, i, key, type);
        if (!appendEmpty(into, key.data(), keyLength, type)) {
            problem = QStringLiteral("a type without a skeleton");
            return false;
        }
        return true;
    }

    // The row's figure for path `i` in its key's array `name` (ordered as `paths`).
    bool keyed(const char *name, const std::vector<int> &paths, std::size_t i, bson_iter_t *at)
    {
        const auto found = std::find(paths.begin(), paths.end(), int(i));
        const std::string dotted = name + ("." + std::to_string(found - paths.begin()));
        return m_key && found != paths.end() && bson_iter_init(at, m_key) &&
               bson_iter_find_descendant(at, dotted.c_str(), at);
    }

    // A version field's value: the row's own (its key's `v`).
    bool versionValue(bson_t *into, std::size_t i, const std::string &key, int type)
    {
        bson_iter_t it;
        if (!keyed("v", m_shape.versionPaths(), i, &it) || int(bson_iter_type(&it)) != type) {
            problem = QStringLiteral("a version value the tally does not hold");
            return false;
        }
        return bson_append_iter(into, key.data(), int(key.size()), &it);
    }

    // An array of objects' `length` elements, each holding some of its fields (the plan's paths
    // with it as parent): as many elements hold one of a type as the row's key says (`o`), the
    // first ones (the walk counts the same whichever elements hold them).
    bool objectElements(bson_t *array, std::size_t i, const MeasureReply::Record &r,
                        std::uint64_t depth)
    {
        struct Field
        {
            const ShapePlan::Path *path = nullptr;
            std::vector<std::pair<int, std::uint64_t>> runs;     // type, elements
            const std::vector<std::uint64_t> *lengths = nullptr; // its arrays' (the records')
            std::size_t next = 0;
        };
        std::vector<Field> fields;
        const std::vector<int> all = m_shape.elementFields();
        for (const int e : all) {
            const ShapePlan::Path &p = m_shape.paths[std::size_t(e)];
            if (p.parent != int(i))
                continue;
            bson_iter_t it;
            Field &f = fields.emplace_back();
            f.path = &p;
            if (p.holds(BsonTypes::kArrayBit) && std::size_t(p.summary) < r.childLengths.size())
                f.lengths = &r.childLengths[std::size_t(p.summary)];
            if (!keyed("o", all, std::size_t(e), &it) ||
                !countsOf(it, p.types, r.length, &f.runs) ||
                (p.holds(BsonTypes::kArrayBit) && !f.lengths)) {
                problem = QStringLiteral("a field of arrays' elements the tally does not count");
                return false;
            }
        }
        for (std::uint64_t n = 0; n < r.length; ++n) {
            const std::string index = std::to_string(n);
            bson_t element;
            bson_append_document_begin(array, index.data(), int(index.size()), &element);
            for (Field &f : fields)
                if (!elementField(&element, f, n, depth))
                    return false;
            bson_append_document_end(array, &element);
        }
        for (const Field &f : fields)
            if (f.lengths && f.next != f.lengths->size()) {
                problem = QStringLiteral("arrays in arrays' elements the records do not count");
                return false;
            }
        return true;
    }

    // Element `n`'s value of field `f` (its runs: the first elements hold it), if any.
    template <typename Field>
    bool elementField(bson_t *element, Field &f, std::uint64_t n, std::uint64_t depth)
    {
        const std::string &name = f.path->segments.back();
        std::uint64_t before = 0;
        for (const auto &[type, count] : f.runs) {
            if (n >= before + count) {
                before += count;
                continue;
            }
            if (BsonTypes::bit(type) != BsonTypes::kArrayBit)
                return appendEmpty(element, name.data(), int(name.size()), type);
            if (f.next >= f.lengths->size()) {
                problem = QStringLiteral("arrays in arrays' elements the records do not count");
                return false;
            }
            m_out.depth = std::max(m_out.depth, depth + 3);
            bson_t nested;
            bson_append_array_begin(element, name.data(), int(name.size()), &nested);
            const std::uint64_t length = (*f.lengths)[f.next++];
            for (std::uint64_t k = 0; k < length; ++k) {
                const std::string index = std::to_string(k);
                if (!appendEmpty(&nested, index.data(), int(index.size()),
                                 indexOf(f.path->elementType))) {
                    problem = QStringLiteral("array elements of a type without a skeleton");
                    return false;
                }
            }
            bson_append_array_end(element, &nested);
            return true;
        }
        return true;
    }

    // The counts per type (in `types`' bit order) the array at `it` holds, as runs; false where
    // they are not that, or more than `length` in all.
    static bool countsOf(const bson_iter_t &it, std::uint32_t types, std::uint64_t length,
                         std::vector<std::pair<int, std::uint64_t>> *runs)
    {
        bson_iter_t count;
        if (!BSON_ITER_HOLDS_ARRAY(&it) || !bson_iter_recurse(&it, &count))
            return false;
        std::uint64_t all = 0;
        for (int type = 0; type < 32; ++type) {
            if (!((types >> type) & 1))
                continue;
            if (!bson_iter_next(&count) || !BSON_ITER_HOLDS_NUMBER(&count) ||
                bson_iter_as_int64(&count) < 0)
                return false;
            runs->emplace_back(type, std::uint64_t(bson_iter_as_int64(&count)));
            all += runs->back().second;
        }
        return all <= length || types == 0;
    }

    // An array's `length` elements: of its one element type, or as many of each of its types
    // as the row's key says (`c`), in bit order.
    bool elements(bson_t *array, std::size_t i, std::uint64_t length)
    {
        const ShapePlan::Path &p = m_shape.paths[i];
        std::vector<std::pair<int, std::uint64_t>> runs; // type, elements
        if (!p.mixedElements()) {
            runs.emplace_back(indexOf(p.elementType), length);
        } else {
            bson_iter_t it;
            if (!keyed("c", m_shape.mixedPaths(), i, &it) ||
                !countsOf(it, p.elementType, length, &runs)) {
                problem = QStringLiteral("an array's element types the tally does not count");
                return false;
            }
        }
        std::uint64_t n = 0;
        for (const auto &[type, count] : runs)
            for (std::uint64_t k = 0; k < count; ++k, ++n) {
                const std::string index = std::to_string(n);
                if (!appendEmpty(array, index.data(), int(index.size()), type)) {
                    problem = QStringLiteral("array elements of a type without a skeleton");
                    return false;
                }
            }
        if (n != length) {
            problem = QStringLiteral("an array's element types that do not add up to its length");
            return false;
        }
        return true;
    }

    const ShapePlan &m_shape;
    const std::vector<std::uint32_t> &m_types;
    const bson_t *m_key;
    const MeasureReply &m_reply;
    ShapeSkeleton &m_out;
};

} // namespace

std::optional<ShapeSkeleton> ShapeSkeleton::build(const ShapePlan &shape,
                                                  const std::vector<std::uint32_t> &types,
                                                  const bson_t *key, std::uint32_t idTypeBit,
                                                  const MeasureReply &reply, QString *problem)
{
    ShapeSkeleton out;
    if (types.size() != shape.paths.size()) {
        *problem = QStringLiteral("a tally's types do not match the shape's paths");
        return std::nullopt;
    }
    out.elementBytes.assign(shape.paths.size(), 0);
    out.arrayValueBytes.assign(shape.paths.size(), 0);
    out.keys.assign(shape.paths.size(), 0);
    BsonDocument doc;
    if (idTypeBit != 0) {
        const std::uint32_t before = doc.get()->len;
        if (!appendEmpty(doc.get(), "_id", 3, indexOf(idTypeBit))) {
            *problem = QStringLiteral("an _id of a type without a skeleton");
            return std::nullopt;
        }
        out.idElementBytes = doc.get()->len - before;
        ++out.fields;
    }
    Builder builder(shape, types, key, reply, out);
    if (!builder.fields(doc.get(), -1, 0)) {
        *problem = builder.problem;
        return std::nullopt;
    }
    out.bytes = doc.bytes();
    return out;
}

} // namespace oe
