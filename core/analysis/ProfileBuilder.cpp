#include "analysis/ProfileBuilder.h"

#include "analysis/PathSegment.h"

#include "analysis/internal/FieldNode.h"
#include "analysis/internal/VersionWatch.h"
#include "bson/BsonTypes.h"
#include "bson/DocumentId.h"
#include "bson/internal/BsonIter.h"
#include "measure/MeasureProjection.h"

#include <bson/bson.h>

#include <algorithm>
#include <cstring>
#include <functional>

namespace oe {

namespace {
const std::string_view kNestedArraySegment = PathSegment::kNestedArray;

// libbson's inline accessors (the out-of-line bson_iter_type/bson_iter_key cost a call per
// element in the hottest loop of the program).
inline bson_type_t typeOf(const bson_iter_t *iter)
{
    return bson_iter_type_unsafe(iter);
}
inline std::uint32_t int32At(const std::uint8_t *p)
{
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return BSON_UINT32_FROM_LE(v);
}
} // namespace

struct ProfileBuilder::Walk
{
    ProfileBuilder &builder;
    const std::uint8_t *document = nullptr;
    SourceError *fault = nullptr;
    // The _id value, pointing into the document (copied only if the document is kept).
    int idType = 0;
    const std::uint8_t *idValue = nullptr;
    std::size_t idLength = 0;
    std::uint64_t docIndex = 0;
    // Shape: the document's fields (in it and its sub-documents, not inside arrays, whose
    // lengths are measured apart) and its depth (1 + the deepest nesting).
    std::uint64_t fields = 0;
    int arrayLevel = 0; // arrays the walk is inside
    int deepest = 0;
    bool versioned = false; // the document has a watched version field (VersionWatch)
    // A skeleton of `weight` documents alike (addShaped; 0: of one example's, exampleShaped)
    // counts each value that many times; examples only where asked for.
    std::uint64_t weight = 1;
    bool examples = true;
    std::string rawId{}; // built for the first example that needs it

    const std::string &id()
    {
        if (rawId.empty() && idValue)
            rawId = DocumentId::raw(idType, idValue, idLength);
        return rawId;
    }
    // Keeps this document as one of the first of `slot` at `node` (a document once per slot).
    void example(FieldNode *node, int slot)
    {
        if (node->shape.addExample({slot, docIndex, id()}) &&
            node->examplesHeld[std::size_t(slot)] < FieldShape::kExamplesPerSlot)
            ++node->examplesHeld[std::size_t(slot)];
    }
    // Documents in order (a scan) stop asking once a slot is full; out of order (counted in the
    // cluster) an earlier one may still take a place.
    void maybeExample(FieldNode *node, int slot)
    {
        if (examples && (node->examplesHeld[std::size_t(slot)] < FieldShape::kExamplesPerSlot ||
                         builder.m_examplesInAnyOrder))
            example(node, slot);
    }

    bool fail(const bson_iter_t *iter, const std::uint8_t *base, const QString &message,
              FieldNode *node)
    {
        if (fault) {
            fault->kind = SourceError::Kind::InvalidData;
            fault->message = message;
            fault->byteOffset =
                std::int64_t(base - document) + std::int64_t(bsoniter::errorOffset(iter));
            if (node && node->parent)
                fault->fieldPath = QString::fromStdString(node->path());
        }
        return false;
    }
    // libbson checks the final NUL byte of the outermost document only: a nested document or
    // array whose last byte is not NUL is accepted there, and rebuilt differently by any writer.
    bool terminated(const bson_iter_t *iter, FieldNode *node)
    {
        const std::uint8_t *data = bsoniter::container(iter) + bsoniter::dataOffset(iter);
        const std::uint32_t length = int32At(data);
        // The walk's common case, inline; the message is made only for a fault.
        return (length >= 5 && data[length - 1] == 0) || badEnd(iter, node, length);
    }
    [[gnu::noinline]] bool badEnd(const bson_iter_t *iter, FieldNode *node, std::uint32_t length)
    {
        const QString what = typeOf(iter) == BSON_TYPE_ARRAY ? QStringLiteral("nested array")
                                                             : QStringLiteral("embedded document");
        // libbson 1.23 lets a nested length prefix below 5 (the smallest document) through.
        if (length < 5) {
            const bson_iter_t at = bsoniter::withErrorAt(iter, bsoniter::dataOffset(iter));
            return fail(
                &at, bsoniter::container(iter),
                QStringLiteral("%1 has a bad length prefix %2 (at least 5)").arg(what).arg(length),
                node);
        }
        const bson_iter_t at = bsoniter::withErrorAt(iter, bsoniter::dataOffset(iter) + length - 1);
        return fail(&at, bsoniter::container(iter),
                    QStringLiteral("%1 does not end with a NUL byte").arg(what), node);
    }
    bool walkFields(bson_iter_t *iter, FieldNode *parent, int depth);
    void visitBlob(const bson_iter_t *iter, bson_type_t type, FieldNode *node);
    bool visitValue(bson_iter_t *iter, FieldNode *node, int depth);
    bool walkArray(bson_iter_t *iter, FieldNode *arrayNode, int depth, std::uint32_t arrayBytes);
};

ProfileBuilder::ProfileBuilder() : ProfileBuilder(Limits{}) {}

ProfileBuilder::ProfileBuilder(const Limits &limits)
    : m_limits(limits), m_root(std::make_unique<FieldNode>()),
      m_largestDocuments(limits.largestDocumentsCapacity, limits.keepDocumentsLargerThan),
      m_longestArrays(limits.longestArraysCapacity, limits.keepArraysLongerThan),
      m_versions(std::make_unique<VersionWatch>(limits.versionFields))
{
    resetShape();
}

void ProfileBuilder::resetShape()
{
    m_shape = DocumentShape();
    m_shape.mostFields = CandidateTail(m_limits.shapeDocumentsCapacity);
    m_shape.deepest = CandidateTail(m_limits.shapeDocumentsCapacity);
    m_shape.bigScalarBytes = m_limits.bigScalarBytes;
}

ProfileBuilder::~ProfileBuilder() = default;
ProfileBuilder::ProfileBuilder(ProfileBuilder &&) noexcept = default;
ProfileBuilder &ProfileBuilder::operator=(ProfileBuilder &&) noexcept = default;

bool ProfileBuilder::addDocument(const std::uint8_t *data, std::uint32_t length,
                                 std::uint64_t docIndex, SourceError *fault)
{
    bson_t doc;
    bson_iter_t iter;
    Walk walk{*this, data, fault};
    walk.docIndex = docIndex;
    if (!bson_init_static(&doc, data, length) || !bson_iter_init(&iter, &doc)) {
        if (fault) {
            fault->kind = SourceError::Kind::InvalidData;
            fault->message = QStringLiteral("malformed BSON document header or terminator");
            fault->byteOffset = 0;
        }
        return false;
    }
    ++m_sequence;
    m_arrayNodes.clear();
    m_objectNodes.clear();
    m_bigNodes.clear();
    m_versions->begin(&iter);
    walk.versioned = m_versions->active();
    if (!walk.walkFields(&iter, m_root.get(), 0))
        return false;
    m_versions->finish(walk.fields, std::uint64_t(walk.deepest) + 1);
    finishDocument(walk.idType, walk.idValue, walk.idLength, length, docIndex, &walk);
    return true;
}

bool ProfileBuilder::walkSkeleton(const std::uint8_t *skeleton, std::uint32_t length,
                                  std::uint64_t weight, std::uint64_t docIndex,
                                  const std::string &rawId)
{
    bson_t doc;
    bson_iter_t iter;
    Walk walk{*this, skeleton, nullptr};
    walk.docIndex = docIndex;
    walk.weight = weight;
    walk.examples = weight == 0;
    walk.rawId = rawId;
    if (!bson_init_static(&doc, skeleton, length) || !bson_iter_init(&iter, &doc))
        return false;
    ++m_sequence;
    m_arrayNodes.clear();
    m_objectNodes.clear();
    m_bigNodes.clear();
    // (An example's walk, of weight 0, offers its versions' examples and counts nothing.)
    m_versions->begin(&iter, weight, weight == 0);
    walk.versioned = m_versions->active();
    if (!walk.walkFields(&iter, m_root.get(), 0))
        return false;
    const std::uint64_t depth = std::uint64_t(walk.deepest) + 1;
    m_versions->finish(walk.fields, depth, weight);
    if (weight > 0) {
        m_shape.fieldCounts.add(walk.fields, weight);
        m_shape.depths.add(depth, weight);
    }
    // A node that held an array has a tail, as after a walk's document (finishDocument).
    for (FieldNode *node : m_arrayNodes)
        if (!node->tail)
            node->tail = std::make_unique<CandidateTail>(m_limits.perPathCapacity);
    m_arrayNodes.clear();
    m_objectNodes.clear();
    return true;
}

void ProfileBuilder::measureWith(std::shared_ptr<const MeasurePlan> plan)
{
    m_plan = std::move(plan);
    m_summaryNodes.clear();
    if (!m_plan)
        return;
    for (const MeasurePlan::Summary &s : m_plan->summaries) {
        FieldNode *node = nodeAt(s.segments);
        node->summary = &s;
        m_summaryNodes.push_back(node);
    }
}

FieldNode *ProfileBuilder::nodeAt(const std::vector<std::string> &segments)
{
    FieldNode *node = m_root.get();
    for (const std::string &segment : segments)
        node = node->child(segment, m_limits.maxChildrenPerField + 1);
    return node;
}

// {_id, s: size, a: [records]} (MeasureProjection's form), or {s, d: {w: document}} for a
// document read whole.
bool ProfileBuilder::addMeasured(const std::uint8_t *data, std::uint32_t length,
                                 std::uint64_t docIndex, SourceError *fault)
{
    auto bad = [&](const QString &message) {
        if (fault) {
            fault->kind = SourceError::Kind::InvalidData;
            fault->message = message;
            fault->byteOffset = 0;
        }
        return false;
    };
    if (MeasureReply::isWhole(data, length))
        return addWhole(data, length, docIndex, fault);
    QString problem;
    const auto reply = m_plan ? MeasureReply::parse(data, length, *m_plan, &problem) : std::nullopt;
    if (!reply)
        return bad(problem);
    ++m_sequence;
    m_arrayNodes.clear();
    m_objectNodes.clear();
    m_bigNodes.clear();
    Walk walk{*this, data, fault};
    walk.docIndex = docIndex;
    if (reply->idLength > 0) {
        bson_t outer;
        bson_iter_t it;
        if (!bson_init_static(&outer, data, length) || !bson_iter_init_find(&it, &outer, "_id"))
            return bad(QStringLiteral("malformed BSON measurement from the server"));
        walk.idType = typeOf(&it);
        walk.idValue = bsoniter::container(&it) + bsoniter::valueOffset(&it);
        walk.idLength = bsoniter::valueLength(&it);
        if (!walk.visitValue(&it, m_root->child("_id", m_limits.maxChildrenPerField), 0))
            return false;
    }
    for (std::size_t i = 0; i < reply->records.size(); ++i)
        addRecord(reply->records[i], m_plan->summaries[i], m_summaryNodes[i]);
    finishDocument(walk.idType, walk.idValue, walk.idLength, std::uint32_t(reply->size), docIndex,
                   nullptr);
    return true;
}

void ProfileBuilder::addRecord(const MeasureReply::Record &r, const MeasurePlan::Summary &s,
                               FieldNode *node, std::uint64_t times)
{
    using Kind = MeasureReply::Record::Kind;
    if (r.kind == Kind::Missing || r.kind == Kind::ThroughArray)
        return; // (through an array: a document the second look could not read whole)
    if (node->lastDocument != m_sequence) {
        node->lastDocument = m_sequence;
        node->presentDocuments += times;
    }
    node->values += times;
    node->bytes += r.elementBytes(s.segments.back()) * times;
    if (r.kind == Kind::Value) {
        node->typeMask |= r.types;
        return;
    }
    node->typeMask |= BsonTypes::kArrayBit;
    node->elementTypeMask |= r.types;
    countArray(node, r.length, times);
    node->elementBytes += (r.wrapped - 13) * times; // {x: array}: 8 bytes, the array's own 5
    for (std::size_t c = 0; c < s.children.size() && c < r.childLengths.size(); ++c) {
        FieldNode *child = node->child(s.children[c].name, m_limits.maxChildrenPerField);
        for (const std::uint64_t n : r.childLengths[c])
            countArray(child, n, times);
    }
}

bool ProfileBuilder::addWhole(const std::uint8_t *data, std::uint32_t length,
                              std::uint64_t docIndex, SourceError *fault)
{
    bson_t outer;
    bson_iter_t it, inner;
    if (!bson_init_static(&outer, data, length) ||
        !bson_iter_init_find(&it, &outer, MeasureProjection::kDocument) ||
        !BSON_ITER_HOLDS_DOCUMENT(&it) || !bson_iter_recurse(&it, &inner) ||
        !bson_iter_next(&inner) || !BSON_ITER_HOLDS_DOCUMENT(&inner)) {
        if (fault) {
            fault->kind = SourceError::Kind::InvalidData;
            fault->message = QStringLiteral("the server's measurement has no document");
        }
        return false;
    }
    std::uint32_t innerLength = 0;
    const std::uint8_t *innerData = nullptr;
    bson_iter_document(&inner, &innerLength, &innerData);
    return addDocument(innerData, innerLength, docIndex, fault);
}

std::uint32_t ProfileBuilder::measuredSize(const std::uint8_t *data, std::uint32_t length)
{
    return MeasureReply::sizeOf(data, length);
}

void ProfileBuilder::countKeys(FieldNode *node, std::uint64_t keys, std::uint64_t times)
{
    node->countKeys(keys, times);
    if (node->mostKeys.offer(m_sequence, keys))
        m_objectNodes.push_back(node);
}

void ProfileBuilder::countBigValue(FieldNode *node, std::uint64_t bytes)
{
    ++node->shape.bigValues;
    if (node->biggestValue.offer(m_sequence, bytes))
        m_bigNodes.push_back(node);
}

void ProfileBuilder::countArray(FieldNode *node, std::uint64_t length, std::uint64_t times)
{
    node->arrays += times;
    if (!node->lengths)
        node->lengths = std::make_unique<Distribution>();
    node->lengths->add(length, times);
    node->elementCount += length * times;
    if (node->longest.offer(m_sequence, length))
        m_arrayNodes.push_back(node);
}

bool ProfileBuilder::Walk::walkFields(bson_iter_t *iter, FieldNode *parent, int depth)
{
    const std::uint8_t *base = bsoniter::container(iter);
    std::uint64_t keys = 0;
    while (bson_iter_next(iter)) {
        ++keys;
        const std::string_view key = bsoniter::key(iter);
        if (depth == 0 && !idValue && key == "_id") {
            idType = typeOf(iter);
            idValue = bsoniter::container(iter) + bsoniter::valueOffset(iter);
            idLength = bsoniter::valueLength(iter);
        }
        FieldNode *node = parent->child(key, builder.m_limits.maxChildrenPerField);
        if (!visitValue(iter, node, depth))
            return false;
    }
    if (bsoniter::errorOffset(iter) != 0)
        return fail(iter, base, QStringLiteral("invalid BSON element"), parent);
    if (arrayLevel == 0)
        fields += keys;
    deepest = std::max(deepest, depth);
    if (parent->parent)
        builder.countKeys(parent, keys, weight);
    return true;
}

bool ProfileBuilder::Walk::visitValue(bson_iter_t *iter, FieldNode *node, int depth)
{
    const bson_type_t type = typeOf(iter);
    if (node->lastDocument != builder.m_sequence) {
        node->lastDocument = builder.m_sequence;
        node->presentDocuments += weight;
        maybeExample(node, FieldShape::presenceSlot);
    }
    node->typeMask |= BsonTypes::bit(type);
    const int slot = TypeCounts::slotOf(type);
    node->shape.types.n[std::size_t(slot)] += weight;
    maybeExample(node, slot);
    if (versioned)
        builder.m_versions->count(node, slot, false, builder.m_sequence, docIndex,
                                  [this]() -> const std::string & { return id(); });
    node->values += weight;
    const std::uint32_t elementBytes = bsoniter::elementLength(iter);
    node->bytes += elementBytes * weight;

    if (type != BSON_TYPE_DOCUMENT && type != BSON_TYPE_ARRAY) {
        if (elementBytes > builder.m_limits.bigScalarBytes)
            visitBlob(iter, type, node);
        return true;
    }
    if (depth + 1 > builder.m_limits.maxDepth) {
        return fail(iter, bsoniter::container(iter),
                    QStringLiteral("nesting deeper than %1 levels").arg(builder.m_limits.maxDepth),
                    node);
    }
    bson_iter_t child;
    if (!bson_iter_recurse(iter, &child)) {
        const bson_iter_t at = bsoniter::withErrorAt(iter, bsoniter::dataOffset(iter));
        return fail(&at, bsoniter::container(iter),
                    type == BSON_TYPE_ARRAY ? QStringLiteral("invalid nested array")
                                            : QStringLiteral("invalid embedded document"),
                    node);
    }
    if (!terminated(iter, node))
        return false;
    if (type == BSON_TYPE_DOCUMENT)
        return walkFields(&child, node, depth + 1);
    return walkArray(&child, node, depth + 1,
                     int32At(bsoniter::container(iter) + bsoniter::dataOffset(iter)));
}

bool ProfileBuilder::Walk::walkArray(bson_iter_t *iter, FieldNode *arrayNode, int depth,
                                     std::uint32_t arrayBytes)
{
    const std::uint8_t *base = bsoniter::container(iter);
    std::uint64_t length = 0;
    FieldNode *nested = nullptr;
    ++arrayLevel;
    while (bson_iter_next(iter)) {
        ++length;
        const bson_type_t type = typeOf(iter);
        arrayNode->elementTypeMask |= BsonTypes::bit(type);
        const int slot = TypeCounts::slotOf(type);
        arrayNode->shape.elementTypes.n[std::size_t(slot)] += weight;
        maybeExample(arrayNode, FieldShape::elementSlot(slot));
        if (versioned)
            builder.m_versions->count(arrayNode, slot, true, builder.m_sequence, docIndex,
                                      [this]() -> const std::string & { return id(); });
        if (type == BSON_TYPE_DOCUMENT) {
            bson_iter_t child;
            if (!bson_iter_recurse(iter, &child)) {
                const bson_iter_t at = bsoniter::withErrorAt(iter, bsoniter::dataOffset(iter));
                return fail(&at, base, QStringLiteral("invalid embedded document"), arrayNode);
            }
            if (!terminated(iter, arrayNode))
                return false;
            if (depth + 1 > builder.m_limits.maxDepth) {
                return fail(
                    iter, base,
                    QStringLiteral("nesting deeper than %1 levels").arg(builder.m_limits.maxDepth),
                    arrayNode);
            }
            if (!walkFields(&child, arrayNode, depth + 1))
                return false;
        } else if (type == BSON_TYPE_ARRAY) {
            if (!nested)
                nested =
                    arrayNode->child(kNestedArraySegment, builder.m_limits.maxChildrenPerField + 1);
            if (!visitValue(iter, nested, depth))
                return false;
        }
    }
    --arrayLevel;
    if (bsoniter::errorOffset(iter) != 0)
        return fail(iter, base, QStringLiteral("invalid BSON array element"), arrayNode);

    builder.countArray(arrayNode, length, weight);
    arrayNode->elementBytes += (arrayBytes >= 5 ? arrayBytes - 5 : 0) * weight;
    deepest = std::max(deepest, depth);
    return true;
}

// Strings, binaries, code and symbols over the limit; a document's biggest per path is kept.
void ProfileBuilder::Walk::visitBlob(const bson_iter_t *iter, bson_type_t type, FieldNode *node)
{
    switch (type) {
    case BSON_TYPE_UTF8:
    case BSON_TYPE_BINARY:
    case BSON_TYPE_CODE:
    case BSON_TYPE_SYMBOL:
    case BSON_TYPE_CODEWSCOPE:
        builder.countBigValue(node, bsoniter::valueLength(iter));
        break;
    default:
        break;
    }
}

void ProfileBuilder::finishDocument(int idType, const std::uint8_t *idValue, std::size_t idLength,
                                    std::uint32_t length, std::uint64_t docIndex, const Walk *walk)
{
    ++m_documents;
    m_sizes.add(length);
    // Most documents are not kept anywhere: build the _id copy only when one is.
    std::string rawId;
    auto id = [&]() -> const std::string & {
        if (rawId.empty() && idValue)
            rawId = DocumentId::raw(idType, idValue, idLength);
        return rawId;
    };
    // A document a tail does not want is still offered, without its _id (nothing copied):
    // the tail then records it as passed over, so isCompleteAbove() does not claim an exact
    // list for thresholds below it.
    auto consider = [&](CandidateTail &tail, std::uint64_t value, auto &&path) {
        if (tail.wants(value, docIndex))
            tail.offer({value, docIndex, length, id(), path()});
        else
            tail.offer({value, docIndex, length, {}, {}});
    };
    const auto noPath = [] { return std::string(); };
    consider(m_largestDocuments, length, noPath);

    FieldNode *longest = nullptr;
    for (FieldNode *node : m_arrayNodes) {
        const std::uint64_t value = node->longest.value;
        if (!longest || value > longest->longest.value)
            longest = node;
        if (!node->tail)
            node->tail = std::make_unique<CandidateTail>(m_limits.perPathCapacity);
        consider(*node->tail, value, noPath);
    }
    if (longest)
        consider(m_longestArrays, longest->longest.value, [&] { return longest->path(); });
    if (!walk)
        return; // measured on the server: no shape
    const std::uint64_t depth = std::uint64_t(walk->deepest) + 1;
    m_shape.fieldCounts.add(walk->fields);
    m_shape.depths.add(depth);
    consider(m_shape.mostFields, walk->fields, noPath);
    consider(m_shape.deepest, depth, noPath);
    for (FieldNode *node : m_objectNodes)
        consider(node->shape.mostKeys, node->mostKeys.value, noPath);
    for (FieldNode *node : m_bigNodes)
        consider(node->shape.biggestValues, node->biggestValue.value, noPath);
}

void ProfileBuilder::merge(ProfileBuilder &&other)
{
    m_root->flushKeys();
    other.m_root->flushKeys();
    m_mergedVersions.absorb(other.m_versions->take());
    m_root->absorb(*other.m_root, m_limits.maxChildrenPerField);
    m_documents += other.m_documents;
    m_sizes.merge(other.m_sizes);
    m_largestDocuments.merge(std::move(other.m_largestDocuments));
    m_longestArrays.merge(std::move(other.m_longestArrays));
    m_shape.absorb(std::move(other.m_shape));
    other.resetShape();
    other.m_root = std::make_unique<FieldNode>();
    other.m_documents = 0;
}

} // namespace oe
