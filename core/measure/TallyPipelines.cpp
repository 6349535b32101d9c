#include "measure/TallyPipelines.h"

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
    if (schema && !s.schema.isEmpty())
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

QString tailField(int id)
{
    if (id == -2)
        return QStringLiteral("s");
    if (id == -1)
        return QStringLiteral("l");
    return QStringLiteral("v%1").arg(id);
}

} // namespace

QByteArray TallyPipelines::tallies(const MeasurePlan &plan, const Scope &s)
{
    Pipeline p;
    scope(p, s, true);
    p.stage("$project", measured(plan).get());
    p.stage("$addFields", O{{QStringLiteral("e"), explained(plan)}});
    const J unexplained = op("$cond", A{QStringLiteral("$e"), QStringLiteral("$$REMOVE"),
                                        O{{QStringLiteral("r"), QStringLiteral("$r")},
                                          {QStringLiteral("i"), QStringLiteral("$_id")}}});
    p.stage("$group", O{{QStringLiteral("_id"), key()},
                        {QStringLiteral("n"), op("$sum", 1)},
                        {QStringLiteral("e"), op("$min", QStringLiteral("$e"))},
                        {QStringLiteral("lo"), op("$min", QStringLiteral("$r"))},
                        {QStringLiteral("hi"), op("$max", QStringLiteral("$r"))},
                        {QStringLiteral("w"), op("$push", unexplained)}});
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

QByteArray TallyPipelines::candidates(const MeasurePlan &plan, const Scope &s,
                                      const std::vector<Fence> &fences,
                                      const std::vector<std::int64_t> &recordIds, bool placed)
{
    Pipeline p;
    scope(p, s, false);
    O values{{QStringLiteral("r"), op("$meta", QStringLiteral("recordId"))},
             {QStringLiteral("s"), op("$bsonSize", QStringLiteral("$$ROOT"))}};
    A all;
    const auto nodes = plan.arrayNodes();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        values.insert(tailField(int(i)), nodeValue(plan, nodes[i]));
        all.append(QString(QStringLiteral("$") + tailField(int(i))));
    }
    p.stage("$project", values);
    p.stage("$addFields", O{{QStringLiteral("l"), op("$max", all)}});
    p.stage("$addFields",
            O{{QStringLiteral("j"), op("$indexOfArray", A{all, QStringLiteral("$l")})}});
    if (placed)
        p.stage("$setWindowFields",
                O{{QStringLiteral("sortBy"), O{{QStringLiteral("r"), 1}}},
                  {QStringLiteral("output"),
                   O{{QStringLiteral("p"), O{{QStringLiteral("$documentNumber"), O{}}}}}}});
    BsonDocument match;
    bson_t alternatives, one, condition;
    BSON_APPEND_ARRAY_BEGIN(match.get(), "$or", &alternatives);
    int n = 0;
    for (const Fence &f : fences) {
        const QByteArray field = tailField(f.tail).toUtf8();
        const std::string at = std::to_string(n++);
        BSON_APPEND_DOCUMENT_BEGIN(&alternatives, at.c_str(), &one);
        bson_append_document_begin(&one, field.constData(), -1, &condition);
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
        const Fence &f = fences[i];
        const QByteArray field = tailField(f.tail).toUtf8();
        const std::string above = "a" + std::to_string(i), at = "b" + std::to_string(i);
        bson_t list, stage, body, condition;
        BSON_APPEND_ARRAY_BEGIN(facets.get(), above.c_str(), &list);
        BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$match", &body);
        bson_append_document_begin(&body, field.constData(), -1, &condition);
        BSON_APPEND_INT64(&condition, "$gt", clamped(std::max<std::uint64_t>(f.atLeast, 1)));
        bson_append_document_end(&body, &condition);
        bson_append_document_end(&stage, &body);
        bson_append_document_end(&list, &stage);
        bson_append_array_end(facets.get(), &list);

        BSON_APPEND_ARRAY_BEGIN(facets.get(), at.c_str(), &list);
        BSON_APPEND_DOCUMENT_BEGIN(&list, "0", &stage);
        BSON_APPEND_DOCUMENT_BEGIN(&stage, "$match", &body);
        bson_append_int64(&body, field.constData(), -1, clamped(f.atLeast));
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
    for (std::size_t i = 0; i < fences.size(); ++i)
        lists << QStringLiteral("$a%1").arg(i) << QStringLiteral("$b%1").arg(i);
    if (!recordIds.empty())
        lists << QStringLiteral("$w");
    p.stage("$project",
            O{{QStringLiteral("_id"), 0}, {QStringLiteral("c"), op("$setUnion", lists)}});
    p.stage("$unwind", O{{QStringLiteral("path"), QStringLiteral("$c")}});
    p.stageText("$replaceWith", "$c");
    return p.finish();
}

} // namespace oe
