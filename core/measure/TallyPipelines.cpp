#include "measure/TallyPipelines.h"

#include "bson/BsonTypes.h"
#include "measure/MeasureProjection.h"
#include "measure/internal/ExpressionJson.h"

#include <limits>
#include <string>

namespace oe {

namespace {

using namespace expr;

BsonDocument fromJson(const O &object)
{
    return expr::toDocument(object);
}

std::int64_t clamped(std::uint64_t n)
{
    return n > std::uint64_t(std::numeric_limits<std::int64_t>::max())
               ? std::numeric_limits<std::int64_t>::max()
               : std::int64_t(n);
}

// A pipeline under construction: {pipeline: [stage, ...]}.
class Pipeline
{
public:
    Pipeline() { BSON_APPEND_ARRAY_BEGIN(m_doc.get(), "pipeline", &m_stages); }
    // Appends {name: body}.
    void stage(const char *name, const bson_t *body)
    {
        bson_t stage;
        begin(&stage);
        bson_append_document(&stage, name, -1, body);
        bson_append_document_end(&m_stages, &stage);
    }
    void stage(const char *name, const O &body) { stage(name, fromJson(body).get()); }
    void stageBytes(const char *name, const QByteArray &body)
    {
        if (const auto doc = BsonDocument::fromBytes(body))
            stage(name, doc->get());
    }
    void stageNumber(const char *name, std::uint64_t n)
    {
        bson_t stage;
        begin(&stage);
        BSON_APPEND_INT64(&stage, name, clamped(n));
        bson_append_document_end(&m_stages, &stage);
    }
    void stageText(const char *name, const char *text)
    {
        bson_t stage;
        begin(&stage);
        BSON_APPEND_UTF8(&stage, name, text);
        bson_append_document_end(&m_stages, &stage);
    }
    QByteArray finish()
    {
        bson_append_array_end(m_doc.get(), &m_stages);
        return m_doc.bytes();
    }

private:
    void begin(bson_t *stage)
    {
        const std::string key = std::to_string(m_count++);
        bson_append_document_begin(&m_stages, key.c_str(), -1, stage);
    }
    BsonDocument m_doc;
    bson_t m_stages;
    int m_count = 0;
};

void scope(Pipeline &p, const TallyPipelines::Scope &s, bool schema)
{
    if (!s.filter.isEmpty())
        p.stageBytes("$match", s.filter);
    if (s.limit)
        p.stageNumber("$limit", *s.limit);
    if (schema && !s.regular.isEmpty())
        p.stageBytes("$match", s.regular);
    else if (schema && !s.schema.isEmpty())
        p.stageBytes("$match", s.schema);
}

// The measurement (MeasureProjection::build) with each document's record id beside it.
BsonDocument measured(const MeasurePlan &plan)
{
    BsonDocument out;
    if (const auto projection = BsonDocument::fromBytes(MeasureProjection::build(plan)))
        bson_concat(out.get(), projection->get());
    const auto r = fromJson(O{{QStringLiteral("r"), op("$meta", QStringLiteral("recordId"))}});
    bson_concat(out.get(), r.get());
    return out;
}

// The group key of a measured document: {t, i, m: {s, a}} (see the header).
O key()
{
    return O{
        {QStringLiteral("t"), op("$type", QStringLiteral("$_id"))},
        {QStringLiteral("i"), op("$bsonSize", O{{QStringLiteral("x"), QStringLiteral("$_id")}})},
        {QStringLiteral("m"), O{{QStringLiteral("s"), QStringLiteral("$s")},
                                {QStringLiteral("a"), QStringLiteral("$a")}}}};
}

// Whether the plan explains the measured document ({s, a} and its _id): MeasureReply::explained
// as an expression, so the documents to read whole are known where they are counted.
J explained(const MeasurePlan &plan)
{
    A okays;
    A bytes;
    for (std::size_t i = 0; i < plan.summaries.size(); ++i) {
        const MeasurePlan::Summary &sum = plan.summaries[i];
        const J rec = QStringLiteral("$$rec");
        const J first = op("$arrayElemAt", A{rec, 0});
        const J wrapped = op("$arrayElemAt", A{rec, 1});
        const J isNull = op("$eq", A{rec, J()});
        const J isText = op("$eq", A{op("$type", rec), QStringLiteral("string")});
        const J isValue = op("$eq", A{op("$type", first), QStringLiteral("string")});
        const J valueOk =
            sum.children.empty() ? J(true) : op("$ne", A{first, QStringLiteral("object")});
        const J check = op("$arrayElemAt", A{rec, 2});
        const J typesOk = sum.hasOneElementType()
                              ? op("$eq", A{check, 0})
                              : op("$not", A{op("$in", A{QStringLiteral("array"), check})});
        const J perElement = op(
            "$lte", A{op("$subtract", A{wrapped, 13}),
                      op("$add", A{op("$multiply", A{first, double(sum.elementBytesLimit)}), 64})});
        const J ok =
            op("$switch",
               O{{QStringLiteral("branches"),
                  A{O{{QStringLiteral("case"), isNull}, {QStringLiteral("then"), true}},
                    O{{QStringLiteral("case"), isText}, {QStringLiteral("then"), false}},
                    O{{QStringLiteral("case"), isValue}, {QStringLiteral("then"), valueOk}}}},
                 {QStringLiteral("default"), op("$and", A{typesOk, perElement})}});
        const int keyBytes = 2 + int(sum.segments.back().size()) - 8;
        const J size =
            op("$cond", A{op("$or", A{isNull, isText}), 0, op("$add", A{wrapped, keyBytes})});
        const J record = op("$arrayElemAt", A{QStringLiteral("$a"), int(i)});
        auto let = [&](const J &in) {
            return op("$let", O{{QStringLiteral("vars"), O{{QStringLiteral("rec"), record}}},
                                {QStringLiteral("in"), in}});
        };
        okays.append(let(ok));
        bytes.append(let(size));
    }
    // An _id that is an object holds fields the measurement does not show: read whole.
    okays.append(op("$not", A{op("$in", A{op("$type", QStringLiteral("$_id")),
                                          A{QStringLiteral("object"), QStringLiteral("array")}})}));
    if (plan.restBytesLimit > 0) {
        const J id =
            op("$cond",
               A{op("$eq", A{op("$type", QStringLiteral("$_id")), QStringLiteral("missing")}), 0,
                 op("$subtract",
                    A{op("$bsonSize", O{{QStringLiteral("x"), QStringLiteral("$_id")}}), 3})});
        A subtracted{QStringLiteral("$s"), -5};
        subtracted.append(op("$multiply", A{id, -1}));
        for (const auto &b : bytes)
            subtracted.append(op("$multiply", A{b, -1}));
        okays.append(op("$lte", A{op("$add", subtracted), double(plan.restBytesLimit)}));
    }
    return op("$and", okays);
}

// Each node's longest array in the document, read from the document itself (cheaper than the
// measurement): the array's length at the summary's path, or the largest length of a child's
// arrays in its elements; 0 where there is none. For a document the plan explains, the same
// numbers the measurement's records give (MeasureReply::longestPerNode).
J nodeValue(const MeasurePlan &plan, const MeasurePlan::ArrayNode &n)
{
    const MeasurePlan::Summary &s = plan.summaries[std::size_t(n.summary)];
    QString path;
    for (const std::string &segment : s.segments)
        path += (path.isEmpty() ? QStringLiteral("$") : QStringLiteral(".")) +
                QString::fromStdString(segment);
    const J isArray = op("$isArray", path);
    if (n.child < 0)
        return op("$cond", A{isArray, op("$size", path), 0});
    const QString child =
        QStringLiteral("$$a.") + QString::fromStdString(s.children[std::size_t(n.child)].name);
    const J arrays =
        op("$filter", O{{QStringLiteral("input"), child},
                        {QStringLiteral("as"), QStringLiteral("c")},
                        {QStringLiteral("cond"), op("$isArray", QStringLiteral("$$c"))}});
    const J lengths = op("$map", O{{QStringLiteral("input"), arrays},
                                   {QStringLiteral("as"), QStringLiteral("c")},
                                   {QStringLiteral("in"), op("$size", QStringLiteral("$$c"))}});
    const J longest = op("$ifNull", A{op("$max", lengths), 0});
    return op("$cond", A{isArray,
                         op("$let", O{{QStringLiteral("vars"), O{{QStringLiteral("a"), path}}},
                                      {QStringLiteral("in"), longest}}),
                         0});
}

// --- the shape of regular documents (ShapePlan) ---------------------------------------------

J typeAt(const ShapePlan::Path &p)
{
    return op("$type", p.expression());
}

J oneIf(const J &condition)
{
    return op("$cond", A{condition, 1, 0});
}

// The bytes a string's or a binary's value holds past those of an empty one.
J extraBytes(const ShapePlan::Path &p)
{
    A branches;
    if (p.holds(BsonTypes::bit(0x02)))
        branches.append(
            O{{QStringLiteral("case"), op("$eq", A{typeAt(p), QStringLiteral("string")})},
              {QStringLiteral("then"), op("$strLenBytes", p.expression())}});
    if (p.holds(BsonTypes::bit(0x05)))
        branches.append(
            O{{QStringLiteral("case"), op("$eq", A{typeAt(p), QStringLiteral("binData")})},
              {QStringLiteral("then"), op("$binarySize", p.expression())}});
    return op("$switch", O{{QStringLiteral("branches"), branches}, {QStringLiteral("default"), 0}});
}

// The type at path i, from the $let of shapeValues.
QString typeVar(std::size_t i)
{
    return QStringLiteral("$$t%1").arg(i);
}

J presentVar(std::size_t i)
{
    return oneIf(op("$ne", A{typeVar(i), QStringLiteral("missing")}));
}

// A regular document's figures for the shape's tails, each path's $type read once ($let):
// {fc: its fields (in it and its objects: every path present, and the _id), dp: its depth (1,
// and the most segments of a path holding an object or an array), k<i>: the keys of the object
// at object path i (0 where it holds none)}.
J shapeValues(const ShapePlan &shape)
{
    O vars;
    A fields{oneIf(op("$ne", A{op("$type", QStringLiteral("$_id")), QStringLiteral("missing")}))};
    A deepest{0};
    for (std::size_t i = 0; i < shape.paths.size(); ++i) {
        const ShapePlan::Path &p = shape.paths[i];
        vars.insert(typeVar(i).mid(2), typeAt(p));
        fields.append(presentVar(i));
        if (p.holds(BsonTypes::kDocumentBit) || p.holds(BsonTypes::kArrayBit))
            deepest.append(
                op("$cond",
                   A{op("$in", A{typeVar(i), A{QStringLiteral("object"), QStringLiteral("array")}}),
                     int(p.segments.size()), 0}));
    }
    O values{{QStringLiteral("fc"), op("$add", fields)},
             {QStringLiteral("dp"), op("$add", A{1, op("$max", deepest)})}};
    for (const int object : shape.objectPaths()) {
        A keys{0};
        for (std::size_t i = 0; i < shape.paths.size(); ++i)
            if (shape.paths[i].parent == object)
                keys.append(presentVar(i));
        values.insert(
            QStringLiteral("k%1").arg(object),
            op("$cond", A{op("$eq", A{typeVar(std::size_t(object)), QStringLiteral("object")}),
                          op("$add", keys), 0}));
    }
    return op("$let", O{{QStringLiteral("vars"), vars}, {QStringLiteral("in"), values}});
}

QString shapeField(int tail)
{
    if (tail == TallyPipelines::kFieldsTail)
        return QStringLiteral("fc");
    if (tail == TallyPipelines::kDepthTail)
        return QStringLiteral("dp");
    return QStringLiteral("k%1").arg(tail);
}

QString tailField(int id)
{
    if (id == -2)
        return QStringLiteral("s");
    if (id == -1)
        return QStringLiteral("l");
    return QStringLiteral("v%1").arg(id);
}

// The lists of fenced candidates (see the header): `fences` by the field their values are in.
// One fenced list: the field its values are in, its fence, and whether the documents of
// `excluded` (record ids) may not take its places (they are read whole, and their figures
// there are not their own).
struct Listed
{
    QByteArray field;
    TallyPipelines::Fence fence;
    bool regularOnly = false;
};

void appendRecordIds(bson_t *into, const char *key, const char *op,
                     const std::vector<std::int64_t> &ids)
{
    bson_t condition, list;
    BSON_APPEND_DOCUMENT_BEGIN(into, key, &condition);
    bson_append_array_begin(&condition, op, -1, &list);
    for (std::size_t i = 0; i < ids.size(); ++i)
        BSON_APPEND_INT64(&list, std::to_string(i).c_str(), ids[i]);
    bson_append_array_end(&condition, &list);
    bson_append_document_end(into, &condition);
}

QByteArray fenced(Pipeline &p, const std::vector<Listed> &fences,
                  const std::vector<std::int64_t> &recordIds,
                  const std::vector<std::int64_t> &excluded)
{
    BsonDocument match;
    bson_t alternatives, one, condition;
    BSON_APPEND_ARRAY_BEGIN(match.get(), "$or", &alternatives);
    int n = 0;
    for (const auto &[field, f, regularOnly] : fences) {
        const std::string at = std::to_string(n++);
        BSON_APPEND_DOCUMENT_BEGIN(&alternatives, at.c_str(), &one);
        bson_append_document_begin(&one, field.constData(), -1, &condition);
        if (f.lazyTies)
            BSON_APPEND_INT64(&condition, "$gt", clamped(std::max<std::uint64_t>(f.atLeast, 1)));
        else
            BSON_APPEND_INT64(&condition, "$gte", clamped(std::max<std::uint64_t>(f.atLeast, 1)));
        bson_append_document_end(&one, &condition);
        bson_append_document_end(&alternatives, &one);
    }
    if (!recordIds.empty()) {
        bson_t list;
        const std::string at = std::to_string(n++);
        BSON_APPEND_DOCUMENT_BEGIN(&alternatives, at.c_str(), &one);
        BSON_APPEND_DOCUMENT_BEGIN(&one, "r", &condition);
        BSON_APPEND_ARRAY_BEGIN(&condition, "$in", &list);
        for (std::size_t i = 0; i < recordIds.size(); ++i)
            BSON_APPEND_INT64(&list, std::to_string(i).c_str(), recordIds[i]);
        bson_append_array_end(&condition, &list);
        bson_append_document_end(&one, &condition);
        bson_append_document_end(&alternatives, &one);
    }
    bson_append_array_end(match.get(), &alternatives);
    if (n == 0)
        return p.finish(); // (no fence and nothing to place: called for nothing)
    p.stage("$match", match.get());
    // Per tail, every value above its fence, and at the fence the first `tied` by position:
    // ties past those cannot be kept, however many share the value.
    BsonDocument facets;
    for (std::size_t i = 0; i < fences.size(); ++i) {
        const auto &[field, f, regularOnly] = fences[i];
        const bool exclude = regularOnly && !excluded.empty();
        const std::string above = "a" + std::to_string(i), at = "b" + std::to_string(i);
        bson_t list, stage, body, condition;
        BSON_APPEND_ARRAY_BEGIN(facets.get(), above.c_str(), &list);
        BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$match", &body);
        bson_append_document_begin(&body, field.constData(), -1, &condition);
        BSON_APPEND_INT64(&condition, "$gt", clamped(std::max<std::uint64_t>(f.atLeast, 1)));
        bson_append_document_end(&body, &condition);
        if (exclude)
            appendRecordIds(&body, "r", "$nin", excluded);
        bson_append_document_end(&stage, &body);
        bson_append_document_end(&list, &stage);
        bson_append_array_end(facets.get(), &list);
        if (f.lazyTies)
            continue; // (a pass of its own: TallyPipelines::tied)
        BSON_APPEND_ARRAY_BEGIN(facets.get(), at.c_str(), &list);
        BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$match", &body);
        bson_append_int64(&body, field.constData(), -1, clamped(f.atLeast));
        if (exclude)
            appendRecordIds(&body, "r", "$nin", excluded);
        bson_append_document_end(&stage, &body);
        bson_append_document_end(&list, &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&list, "1", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$sort", &body);
        BSON_APPEND_INT32(&body, "r", 1);
        bson_append_document_end(&stage, &body);
        bson_append_document_end(&list, &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&list, "2", &stage);
        BSON_APPEND_INT64(&stage, "$limit", clamped(std::max<std::uint64_t>(f.tied, 1)));
        bson_append_document_end(&list, &stage);
        bson_append_array_end(facets.get(), &list);
    }
    if (!recordIds.empty()) {
        bson_t list, stage, body, condition, ids;
        BSON_APPEND_ARRAY_BEGIN(facets.get(), "w", &list);
        BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$match", &body);
        BSON_APPEND_DOCUMENT_BEGIN(&body, "r", &condition);
        BSON_APPEND_ARRAY_BEGIN(&condition, "$in", &ids);
        for (std::size_t i = 0; i < recordIds.size(); ++i)
            BSON_APPEND_INT64(&ids, std::to_string(i).c_str(), recordIds[i]);
        bson_append_array_end(&condition, &ids);
        bson_append_document_end(&body, &condition);
        bson_append_document_end(&stage, &body);
        bson_append_document_end(&list, &stage);
        bson_append_array_end(facets.get(), &list);
    }
    p.stage("$facet", facets.get());
    // A document in several lists (the largest are often the longest) comes once, as a
    // document of the cursor.
    A lists;
    for (std::size_t i = 0; i < fences.size(); ++i) {
        lists << QStringLiteral("$a%1").arg(i);
        if (!fences[i].fence.lazyTies)
            lists << QStringLiteral("$b%1").arg(i);
    }
    if (!recordIds.empty())
        lists << QStringLiteral("$w");
    p.stage("$project",
            O{{QStringLiteral("_id"), 0}, {QStringLiteral("c"), op("$setUnion", lists)}});
    p.stage("$unwind", O{{QStringLiteral("path"), QStringLiteral("$c")}});
    p.stageText("$replaceWith", "$c");
    return p.finish();
}

std::vector<Listed> named(const std::vector<TallyPipelines::Fence> &fences)
{
    std::vector<Listed> out;
    for (const TallyPipelines::Fence &f : fences)
        out.push_back({tailField(f.tail).toUtf8(), f, false});
    return out;
}

} // namespace

QByteArray TallyPipelines::tallies(const MeasurePlan &plan, const Scope &s, const ShapePlan *shape)
{
    Pipeline p;
    scope(p, s, true);
    BsonDocument projection = measured(plan);
    O groupKey = key();
    O sums;
    if (shape) {
        A types;
        O shaped;
        for (const ShapePlan::Path &path : shape->paths)
            types.append(typeAt(path));
        shaped.insert(QStringLiteral("k"), types);
        for (const int v : shape->variablePaths()) {
            const QString x = QStringLiteral("x%1").arg(v);
            shaped.insert(x, extraBytes(shape->paths[std::size_t(v)]));
            sums.insert(x, op("$sum", QString(QStringLiteral("$") + x)));
        }
        const auto more = fromJson(shaped);
        bson_concat(projection.get(), more.get());
        groupKey.insert(QStringLiteral("k"), QStringLiteral("$k"));
        sums.insert(QStringLiteral("f"),
                    op("$minN", O{{QStringLiteral("n"), int(kFirstDocuments)},
                                  {QStringLiteral("input"),
                                   O{{QStringLiteral("r"), QStringLiteral("$r")},
                                     {QStringLiteral("i"), QStringLiteral("$_id")}}}}));
    }
    p.stage("$project", projection.get());
    O group{{QStringLiteral("_id"), groupKey},
            {QStringLiteral("n"), op("$sum", 1)},
            {QStringLiteral("lo"), op("$min", QStringLiteral("$r"))},
            {QStringLiteral("hi"), op("$max", QStringLiteral("$r"))}};
    // A regular document is explained by its shape: only without one does the plan's verdict
    // pick the documents to read whole.
    if (!shape) {
        p.stage("$addFields", O{{QStringLiteral("e"), explained(plan)}});
        const J unexplained = op("$cond", A{QStringLiteral("$e"), QStringLiteral("$$REMOVE"),
                                            O{{QStringLiteral("r"), QStringLiteral("$r")},
                                              {QStringLiteral("i"), QStringLiteral("$_id")}}});
        group.insert(QStringLiteral("e"), op("$min", QStringLiteral("$e")));
        group.insert(QStringLiteral("w"), op("$push", unexplained));
    }
    for (auto it = sums.begin(); it != sums.end(); ++it)
        group.insert(it.key(), it.value());
    p.stage("$group", group);
    return p.finish();
}

QByteArray TallyPipelines::unseen(const Scope &s)
{
    Pipeline p;
    scope(p, s, false);
    BsonDocument nor;
    bson_t list;
    BSON_APPEND_ARRAY_BEGIN(nor.get(), "$nor", &list);
    if (const auto schema = BsonDocument::fromBytes(s.schema))
        BSON_APPEND_DOCUMENT(&list, "0", schema->get());
    bson_append_array_end(nor.get(), &list);
    p.stage("$match", nor.get());
    p.stage("$project", O{{QStringLiteral("r"), op("$meta", QStringLiteral("recordId"))}});
    return p.finish();
}

namespace {

// Each document's candidate values ({r, s, v<i>, l, j[, h]}: see the header).
void candidateValues(Pipeline &p, const MeasurePlan &plan, const ShapePlan *shape)
{
    O values{{QStringLiteral("r"), op("$meta", QStringLiteral("recordId"))},
             {QStringLiteral("s"), op("$bsonSize", QStringLiteral("$$ROOT"))}};
    A all;
    const auto nodes = plan.arrayNodes();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        values.insert(tailField(int(i)), nodeValue(plan, nodes[i]));
        all.append(QString(QStringLiteral("$") + tailField(int(i))));
    }
    if (shape)
        values.insert(QStringLiteral("h"), shapeValues(*shape));
    p.stage("$project", values);
    p.stage("$addFields", O{{QStringLiteral("l"), op("$max", all)}});
    p.stage("$addFields",
            O{{QStringLiteral("j"), op("$indexOfArray", A{all, QStringLiteral("$l")})}});
}

QByteArray listedField(int tail, bool shaped)
{
    return shaped ? QStringLiteral("h.%1").arg(shapeField(tail)).toUtf8()
                  : tailField(tail).toUtf8();
}

} // namespace

QByteArray TallyPipelines::candidates(const MeasurePlan &plan, const Scope &s,
                                      const std::vector<Fence> &fences,
                                      const std::vector<std::int64_t> &recordIds, bool placed,
                                      const ShapePlan *shape, const std::vector<Fence> &shapeFences,
                                      const std::vector<std::int64_t> &irregular)
{
    Pipeline p;
    scope(p, s, false);
    candidateValues(p, plan, shapeFences.empty() ? nullptr : shape);
    if (placed)
        p.stage("$setWindowFields",
                O{{QStringLiteral("sortBy"), O{{QStringLiteral("r"), 1}}},
                  {QStringLiteral("output"),
                   O{{QStringLiteral("p"), O{{QStringLiteral("$documentNumber"), O{}}}}}}});
    std::vector<Listed> lists = named(fences);
    for (const Fence &f : shapeFences)
        lists.push_back({listedField(f.tail, true), f, true});
    return fenced(p, lists, recordIds, irregular);
}

QByteArray TallyPipelines::tied(const MeasurePlan &plan, const Scope &s, const Fence &fence,
                                const ShapePlan *shape, const std::vector<std::int64_t> &irregular)
{
    Pipeline p;
    scope(p, s, false);
    candidateValues(p, plan, shape);
    BsonDocument match;
    bson_append_int64(match.get(), listedField(fence.tail, shape).constData(), -1,
                      clamped(fence.atLeast));
    if (shape && !irregular.empty())
        appendRecordIds(match.get(), "r", "$nin", irregular);
    p.stage("$match", match.get());
    p.stageNumber("$limit", std::max<std::uint64_t>(fence.tied, 1));
    return p.finish();
}

namespace {

// {$or: [one conjunction per tuple]}: each path of the shape its type ($type; and no array
// where the path may hold one: the matcher looks into arrays) or missing ($exists: false).
BsonDocument tuples(const ShapePlan &shape,
                    const std::vector<const std::vector<std::uint32_t> *> &all)
{
    BsonDocument out;
    bson_t any, one, condition, none;
    BSON_APPEND_ARRAY_BEGIN(out.get(), "$or", &any);
    for (std::size_t t = 0; t < all.size(); ++t) {
        BSON_APPEND_DOCUMENT_BEGIN(&any, std::to_string(t).c_str(), &one);
        bson_t list;
        BSON_APPEND_ARRAY_BEGIN(&one, "$and", &list);
        int n = 0;
        for (std::size_t i = 0; i < shape.paths.size() && i < all[t]->size(); ++i) {
            const ShapePlan::Path &p = shape.paths[i];
            const std::uint32_t type = (*all[t])[i];
            const QByteArray path = p.expression().mid(1).toUtf8();
            bson_t clause;
            const std::string key = std::to_string(n++);
            BSON_APPEND_DOCUMENT_BEGIN(&list, key.c_str(), &clause);
            bson_append_document_begin(&clause, path.constData(), -1, &condition);
            if (type == 0) {
                BSON_APPEND_BOOL(&condition, "$exists", false);
            } else {
                const QString alias = BsonTypes::names(type).value(0);
                BSON_APPEND_UTF8(&condition, "$type", alias.toUtf8().constData());
                if (p.holds(BsonTypes::kArrayBit) && type != BsonTypes::kArrayBit) {
                    BSON_APPEND_DOCUMENT_BEGIN(&condition, "$not", &none);
                    BSON_APPEND_UTF8(&none, "$type", "array");
                    bson_append_document_end(&condition, &none);
                }
            }
            bson_append_document_end(&clause, &condition);
            bson_append_document_end(&list, &clause);
        }
        bson_append_array_end(&one, &list);
        bson_append_document_end(&any, &one);
    }
    bson_append_array_end(out.get(), &any);
    return out;
}

// Too many tuples for one command: the documents' own figures (h) pick them instead.
bool byTuples(const ShapePlan &shape, std::size_t tuples)
{
    return tuples * std::max<std::size_t>(shape.paths.size(), 1) <=
           TallyPipelines::kMaxTupleClauses;
}

void shapeEntries(Pipeline &p, const ShapePlan &shape)
{
    p.stage("$project", O{{QStringLiteral("r"), op("$meta", QStringLiteral("recordId"))},
                          {QStringLiteral("s"), op("$bsonSize", QStringLiteral("$$ROOT"))},
                          {QStringLiteral("h"), shapeValues(shape)}});
}

} // namespace

QByteArray TallyPipelines::shapeCandidates(const ShapePlan &shape, const Scope &s,
                                           const std::vector<ShapeList> &lists)
{
    Pipeline p;
    scope(p, s, true);
    std::vector<const std::vector<std::uint32_t> *> all;
    std::vector<Listed> listed;
    for (const ShapeList &l : lists) {
        for (const auto &t : l.above)
            all.push_back(&t);
        if (!l.fence.lazyTies)
            for (const auto &t : l.at)
                all.push_back(&t);
        listed.push_back({listedField(l.fence.tail, true), l.fence, false});
    }
    if (byTuples(shape, all.size()))
        p.stage("$match", tuples(shape, all).get());
    shapeEntries(p, shape);
    return fenced(p, listed, {}, {});
}

QByteArray TallyPipelines::shapeTied(const ShapePlan &shape, const Scope &s, const ShapeList &list)
{
    Pipeline p;
    scope(p, s, true);
    std::vector<const std::vector<std::uint32_t> *> all;
    for (const auto &t : list.at)
        all.push_back(&t);
    if (byTuples(shape, all.size())) {
        p.stage("$match", tuples(shape, all).get());
        p.stageNumber("$limit", std::max<std::uint64_t>(list.fence.tied, 1));
        shapeEntries(p, shape);
    } else {
        shapeEntries(p, shape);
        BsonDocument match;
        bson_append_int64(match.get(), listedField(list.fence.tail, true).constData(), -1,
                          clamped(list.fence.atLeast));
        p.stage("$match", match.get());
        p.stageNumber("$limit", std::max<std::uint64_t>(list.fence.tied, 1));
    }
    return p.finish();
}

} // namespace oe
