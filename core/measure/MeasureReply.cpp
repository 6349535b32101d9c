#include "measure/MeasureReply.h"

#include "bson/BsonTypes.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonIter.h"
#include "measure/MeasureProjection.h"

#include <bson/bson.h>

#include <QStringList>

#include <algorithm>

namespace oe {

namespace {

// A number the server returned ($size, $bsonSize): int32, int64 or a whole double.
bool countAt(const bson_iter_t *iter, std::uint64_t *out)
{
    switch (bson_iter_type(iter)) {
    case BSON_TYPE_INT32:
        *out = std::uint64_t(bson_iter_int32(iter));
        return bson_iter_int32(iter) >= 0;
    case BSON_TYPE_INT64:
        *out = std::uint64_t(bson_iter_int64(iter));
        return bson_iter_int64(iter) >= 0;
    case BSON_TYPE_DOUBLE: {
        const double d = bson_iter_double(iter);
        *out = d >= 0 && d < 1.8e19 ? std::uint64_t(d) : 0;
        return d >= 0 && d < 1.8e19 && double(*out) == d;
    }
    default:
        return false;
    }
}

std::uint32_t typeBit(const bson_iter_t *iter)
{
    std::uint32_t length = 0;
    const char *alias = bson_iter_utf8(iter, &length);
    return BsonTypes::bitOfAlias(std::string_view(alias, length));
}

// With one element type learnt, the server counts the others (or, where the projection checks
// them, returns the array's field only where there is one: see parse); else it lists the types.
bool readArray(bson_iter_t *it, const MeasurePlan::Summary &s, bool projected,
               MeasureReply::Record *r)
{
    r->kind = MeasureReply::Record::Kind::Array;
    if (!countAt(it, &r->length) || !bson_iter_next(it) || !countAt(it, &r->wrapped) ||
        r->wrapped < 13)
        return false;
    if (projected) {
        r->types = r->length > 0 ? s.elementTypes : 0;
    } else if (!bson_iter_next(it)) {
        return false;
    } else if (s.hasOneElementType()) {
        std::uint64_t others = 0;
        if (!countAt(it, &others))
            return false;
        r->typesKnown = others == 0;
        r->types = r->length > 0 && others == 0 ? s.elementTypes : 0;
    } else {
        bson_iter_t names;
        if (!BSON_ITER_HOLDS_ARRAY(it) || !bson_iter_recurse(it, &names))
            return false;
        while (bson_iter_next(&names)) {
            if (!BSON_ITER_HOLDS_UTF8(&names))
                return false;
            r->types |= typeBit(&names);
        }
    }
    for (std::size_t c = 0; c < s.children.size(); ++c) {
        bson_iter_t lengths;
        if (!bson_iter_next(it) || !BSON_ITER_HOLDS_ARRAY(it) || !bson_iter_recurse(it, &lengths))
            return false;
        std::vector<std::uint64_t> &out = r->childLengths.emplace_back();
        while (bson_iter_next(&lengths)) {
            std::uint64_t n = 0;
            if (!countAt(&lengths, &n))
                return false;
            out.push_back(n);
        }
    }
    return !bson_iter_next(it);
}

bool readRecord(bson_iter_t *at, const MeasurePlan::Summary &s, bool projected,
                MeasureReply::Record *r)
{
    using Kind = MeasureReply::Record::Kind;
    if (BSON_ITER_HOLDS_NULL(at)) {
        r->kind = Kind::Missing;
        return true;
    }
    if (BSON_ITER_HOLDS_UTF8(at)) {
        r->kind = Kind::ThroughArray;
        return std::string_view(bson_iter_utf8(at, nullptr)) == MeasureProjection::kThroughArray;
    }
    bson_iter_t it;
    if (!BSON_ITER_HOLDS_ARRAY(at) || !bson_iter_recurse(at, &it) || !bson_iter_next(&it))
        return false;
    if (BSON_ITER_HOLDS_UTF8(&it)) {
        r->kind = Kind::Value;
        r->types = typeBit(&it);
        return r->types != 0 && bson_iter_next(&it) && countAt(&it, &r->wrapped) &&
               r->wrapped >= 8 && !bson_iter_next(&it);
    }
    return readArray(&it, s, projected, r);
}

} // namespace

std::optional<MeasureReply> MeasureReply::parse(const std::uint8_t *data, std::uint32_t length,
                                                const MeasurePlan &plan, QString *problem)
{
    auto bad = [&](const QString &what) -> std::optional<MeasureReply> {
        if (problem)
            *problem = what;
        return std::nullopt;
    };
    bson_t outer;
    bson_iter_t it;
    if (!bson_init_static(&outer, data, length) || !bson_iter_init(&it, &outer))
        return bad(QStringLiteral("malformed BSON measurement from the server"));
    MeasureReply reply;
    bool sized = false, recorded = false;
    std::vector<std::string_view> otherElements; // fields the projection's $elemMatch returned
    while (bson_iter_next(&it)) {
        const std::string_view key = bson_iter_key(&it);
        if (key != "_id" && key != MeasureProjection::kSize && key != MeasureProjection::kRecords) {
            otherElements.push_back(key);
        } else if (key == "_id") {
            reply.idOffset = bson_iter_offset(&it);
            reply.idLength = std::uint32_t(bsoniter::elementLength(&it));
        } else if (key == MeasureProjection::kSize) {
            sized = countAt(&it, &reply.size) && reply.size >= 5 && reply.size <= UINT32_MAX;
        } else if (key == MeasureProjection::kRecords) {
            bson_iter_t records;
            if (!BSON_ITER_HOLDS_ARRAY(&it) || !bson_iter_recurse(&it, &records))
                break;
            for (const MeasurePlan::Summary &s : plan.summaries) {
                Record &r = reply.records.emplace_back();
                if (!bson_iter_next(&records) ||
                    !readRecord(&records, s, plan.projectsElementCheck(s), &r))
                    return bad(QStringLiteral("the server's measurement of %1 is malformed")
                                   .arg(QString::fromStdString(s.path())));
            }
            recorded = !bson_iter_next(&records);
        }
    }
    if (!sized)
        return bad(QStringLiteral("the server's measurement has no document size"));
    if (!recorded)
        return bad(QStringLiteral("the server's measurement has no records of the plan's arrays"));
    for (const std::string_view key : otherElements) {
        std::size_t i = 0;
        while (i < plan.summaries.size() && !(plan.projectsElementCheck(plan.summaries[i]) &&
                                              plan.summaries[i].segments.front() == key))
            ++i;
        if (i == plan.summaries.size())
            return bad(QStringLiteral("the server's measurement has a field %1 the plan did not "
                                      "ask for")
                           .arg(QString::fromUtf8(key.data(), qsizetype(key.size()))));
        reply.records[i].typesKnown = false;
        reply.records[i].types = 0;
    }
    return reply;
}

bool MeasureReply::explained(const MeasurePlan &plan) const
{
    std::uint64_t rest = size;
    const std::uint64_t fixed = 5 + idLength; // the document's length and NUL, its _id
    rest = rest > fixed ? rest - fixed : 0;
    for (std::size_t i = 0; i < records.size() && i < plan.summaries.size(); ++i) {
        const Record &r = records[i];
        const MeasurePlan::Summary &s = plan.summaries[i];
        switch (r.kind) {
        case Record::Kind::Missing:
            continue;
        case Record::Kind::ThroughArray:
            return false;
        case Record::Kind::Value:
            // An object here holds fields the record does not show, arrays among them maybe.
            if (r.types == BsonTypes::kDocumentBit && !s.children.empty())
                return false;
            break;
        case Record::Kind::Array:
            if (!r.typesKnown || (r.types & BsonTypes::kArrayBit) ||
                r.wrapped - 13 > r.length * s.elementBytesLimit + 64)
                return false;
            break;
        }
        const std::uint64_t bytes = r.elementBytes(s.segments.back());
        rest = rest > bytes ? rest - bytes : 0;
    }
    return plan.restBytesLimit == 0 || rest <= plan.restBytesLimit;
}

std::vector<std::uint64_t> MeasureReply::longestPerNode(const MeasurePlan &plan) const
{
    std::vector<std::uint64_t> longest;
    for (const MeasurePlan::ArrayNode &n : plan.arrayNodes()) {
        const Record *r = std::size_t(n.summary) < records.size() ? &records[n.summary] : nullptr;
        std::uint64_t value = 0;
        if (r && r->kind == Record::Kind::Array) {
            if (n.child < 0)
                value = r->length;
            else if (std::size_t(n.child) < r->childLengths.size())
                for (const std::uint64_t length : r->childLengths[std::size_t(n.child)])
                    value = std::max(value, length);
        }
        longest.push_back(value);
    }
    return longest;
}

QByteArray MeasureReply::whole(const std::uint8_t *document, std::uint32_t length)
{
    BsonDocument outer;
    bson_t inner;
    bson_iter_t id;
    const bool valid = bson_init_static(&inner, document, length);
    // The _id first, as in a measurement: range scans read it from there.
    if (valid && bson_iter_init_find(&id, &inner, "_id"))
        bson_append_iter(outer.get(), "_id", 3, &id);
    BSON_APPEND_INT64(outer.get(), MeasureProjection::kSize, std::int64_t(length));
    bson_t d;
    bson_append_document_begin(outer.get(), MeasureProjection::kDocument, -1, &d);
    if (valid)
        bson_append_document(&d, MeasureProjection::kWhole, -1, &inner);
    bson_append_document_end(outer.get(), &d);
    return outer.bytes();
}

bool MeasureReply::isWhole(const std::uint8_t *data, std::uint32_t length)
{
    bson_t outer;
    bson_iter_t it;
    return bson_init_static(&outer, data, length) &&
           bson_iter_init_find(&it, &outer, MeasureProjection::kDocument);
}

std::uint64_t MeasureReply::restOf(const std::uint8_t *document, std::uint32_t length,
                                   const MeasurePlan &plan)
{
    bson_t doc;
    bson_iter_t it;
    if (!bson_init_static(&doc, document, length))
        return length;
    std::uint64_t rest = length > 5 ? length - 5 : 0;
    auto drop = [&](const bson_iter_t *at) {
        const std::uint64_t bytes = bsoniter::elementLength(at);
        rest = rest > bytes ? rest - bytes : 0;
    };
    if (bson_iter_init_find(&it, &doc, "_id"))
        drop(&it);
    for (const MeasurePlan::Summary &s : plan.summaries) {
        // Through objects only, as the server's `$` path with no array on the way.
        bson_iter_t at;
        if (!bson_iter_init(&at, &doc))
            break;
        bool found = true;
        for (std::size_t i = 0; found && i < s.segments.size(); ++i) {
            found = bson_iter_find_w_len(&at, s.segments[i].c_str(), int(s.segments[i].size()));
            if (found && i + 1 < s.segments.size()) {
                bson_iter_t inside;
                found = BSON_ITER_HOLDS_DOCUMENT(&at) && bson_iter_recurse(&at, &inside);
                if (found)
                    at = inside;
            }
        }
        if (found)
            drop(&at);
    }
    return rest;
}

std::uint32_t MeasureReply::sizeOf(const std::uint8_t *data, std::uint32_t length)
{
    bson_t outer;
    bson_iter_t it;
    std::uint64_t size = 0;
    if (!bson_init_static(&outer, data, length) ||
        !bson_iter_init_find(&it, &outer, MeasureProjection::kSize) || !countAt(&it, &size) ||
        size > UINT32_MAX)
        return 0;
    return std::uint32_t(size);
}

} // namespace oe
