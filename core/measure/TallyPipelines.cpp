#include "measure/TallyPipelines.h"

#include "bson/BsonTypes.h"
#include "bson/internal/BsonRaw.h"
#include "measure/MeasureProjection.h"
#include "measure/internal/TallyStages.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string>

namespace oe {

using namespace tallystages;

namespace {

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

// The group key of a measured document: {t, i, m: {s, a}} (see the header), its size and
// records the measured fields `s` and `a` (default), or `measure`'s expressions evaluated in
// the key itself.
O key(const O &measure = O{{QStringLiteral("s"), QStringLiteral("$s")},
                           {QStringLiteral("a"), QStringLiteral("$a")}})
{
    return O{
        {QStringLiteral("t"), op("$type", QStringLiteral("$_id"))},
        {QStringLiteral("i"), op("$bsonSize", O{{QStringLiteral("x"), QStringLiteral("$_id")}})},
        {QStringLiteral("m"), O{{QStringLiteral("s"), measure.value(QStringLiteral("s"))},
                                {QStringLiteral("a"), measure.value(QStringLiteral("a"))}}}};
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

// Each document's candidate values ({r, s, v<i>, l, j}: see the header).
void candidateValues(Pipeline &p, const MeasurePlan &plan)
{
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
}

// The documents a fence may keep, judged on the document itself before candidateValues
// projects every one ($bsonSize and each node's $size in a $match's $expr: no copy of the
// documents below every fence, which are nearly all). A superset of fenced()'s lists.
void preFenced(Pipeline &p, const MeasurePlan &plan,
               const std::vector<TallyPipelines::Fence> &fences)
{
    const auto nodes = plan.arrayNodes();
    A any;
    auto atLeast = [&](const J &value, std::uint64_t n) {
        any.append(op("$gte", A{value, double(std::max<std::uint64_t>(n, 1))}));
    };
    for (const TallyPipelines::Fence &f : fences) {
        if (f.tail == -2) {
            atLeast(op("$bsonSize", QStringLiteral("$$ROOT")), f.atLeast);
        } else if (f.tail == -1) {
            for (const auto &n : nodes)
                atLeast(nodeValue(plan, n), f.atLeast);
        } else if (f.tail >= 0 && std::size_t(f.tail) < nodes.size()) {
            atLeast(nodeValue(plan, nodes[std::size_t(f.tail)]), f.atLeast);
        } else {
            return; // (a tail this pass does not know: no filter before the lists')
        }
    }
    if (!any.isEmpty())
        p.stage("$match", O{{QStringLiteral("$expr"), op("$or", any)}});
}

// The shape's top-level field names.
std::set<std::string> topLevelOf(const ShapePlan &shape)
{
    std::set<std::string> names;
    for (const ShapePlan::Path &path : shape.paths)
        if (!path.segments.empty() && path.segments.front() != "_id")
            names.insert(path.segments.front());
    return names;
}

// The $group evaluates the shape's figures on the document's fields: none is named as the
// measurement's own (s, a, r, k, v, c, o, x<i>), else the $project evaluates them on the
// document as it is and the $group reads them there.
bool figuresInGroup(const std::set<std::string> &topLevel)
{
    return std::none_of(topLevel.begin(), topLevel.end(), [](const std::string &n) {
        return n == "s" || n == "a" || n == "r" || n == "k" || n == "v" || n == "c" || n == "o" ||
               n.front() == 'x';
    });
}

// The tallies with a shape. The $project measures the document (its size and records: on
// the document as it is) and keeps its record id and its top-level fields the shape names;
// the $group evaluates the shape's figures ($type per path, the bytes of strings) on those.
// (Evaluated in the $project, they would each be a field of a copy of every document: a
// sixth of the pass more on a million small documents.)
QByteArray shapeTallies(const MeasurePlan &plan, const TallyPipelines::Scope &s,
                        const ShapePlan &shape)
{
    Pipeline p;
    scope(p, s, true);
    BsonDocument projection = measured(plan);
    const std::set<std::string> topLevel = topLevelOf(shape);
    const bool inGroup = figuresInGroup(topLevel);
    auto figure = [&](const QString &name, const J &value) -> J {
        if (inGroup)
            return value;
        const auto more = fromJson(O{{name, value}});
        bson_concat(projection.get(), more.get());
        return QString(QStringLiteral("$") + name);
    };
    // The values each one-type field of arrays' objects gathers, walked once in the $project
    // (its count and its strings' bytes both read them: on the demo's feeds, a fifth of the
    // tallies' time), unless a top-level field has the name.
    const O gatheredValues = gatheredFields(shape);
    const bool hoisted = inGroup && !gatheredValues.isEmpty() &&
                         std::none_of(topLevel.begin(), topLevel.end(), [&](const std::string &n) {
                             return gatheredValues.contains(QString::fromStdString(n));
                         });
    // Without record ids, and nothing to gather once for two figures: no $project, the key
    // measures the document itself.
    const bool bare = !s.recordIds && TallyPipelines::tallyWithoutRecordIds(shape);
    const Gathering gathering = hoisted ? Gathering::Hoisted : Gathering::Inline;
    if (gathering == Gathering::Hoisted)
        bson_concat(projection.get(), fromJson(gatheredValues).get());
    O groupKey = bare ? key(MeasureProjection::fields(plan)) : key();
    // The $type tuple, and what the skeleton needs besides: the version fields' values, the
    // mixed arrays' counts of each element type, the arrays of objects' elements holding each
    // field (ShapeSkeleton).
    const std::pair<QString, A> figures[] = {
        {QStringLiteral("k"), shapeTypes(shape, gathering)},
        {QStringLiteral("v"), versionValues(shape)},
        {QStringLiteral("c"), mixedCounts(shape)},
        {QStringLiteral("o"), elementFieldCounts(shape, gathering)}};
    for (const auto &[name, values] : figures)
        if (name == QLatin1String("k") || !values.isEmpty())
            groupKey.insert(name, figure(name, values));
    O sums;
    for (const int v : shape.variablePaths()) {
        const QString x = QStringLiteral("x%1").arg(v);
        sums.insert(x, op("$sum", figure(x, extraBytes(shape, std::size_t(v), gathering))));
    }
    if (inGroup)
        for (const std::string &name : topLevel)
            BSON_APPEND_INT32(projection.get(), name.c_str(), 1);
    const J first =
        op("$minN", O{{QStringLiteral("n"), int(TallyPipelines::kFirstDocuments)},
                      {QStringLiteral("input"), O{{QStringLiteral("r"), QStringLiteral("$r")},
                                                  {QStringLiteral("i"), QStringLiteral("$_id")}}}});
    O group{{QStringLiteral("_id"), groupKey}, {QStringLiteral("n"), op("$sum", 1)}};
    if (bare) {
        group.insert(QStringLiteral("f"),
                     op("$firstN", O{{QStringLiteral("n"), int(TallyPipelines::kFirstDocuments)},
                                     {QStringLiteral("input"),
                                      O{{QStringLiteral("i"), QStringLiteral("$_id")}}}}));
    } else {
        p.stage("$project", projection.get());
        group.insert(QStringLiteral("lo"), op("$min", QStringLiteral("$r")));
        group.insert(QStringLiteral("hi"), op("$max", QStringLiteral("$r")));
        group.insert(QStringLiteral("f"), first);
    }
    for (auto it = sums.begin(); it != sums.end(); ++it)
        group.insert(it.key(), it.value());
    p.stage("$group", group);
    return p.finish();
}

} // namespace

bool TallyPipelines::tallyWithoutRecordIds(const ShapePlan &shape)
{
    return figuresInGroup(topLevelOf(shape)) && gatheredFields(shape).isEmpty();
}

QByteArray TallyPipelines::tallies(const MeasurePlan &plan, const Scope &s, const ShapePlan *shape)
{
    if (shape)
        return shapeTallies(plan, s, *shape);
    Pipeline p;
    scope(p, s, true);
    p.stage("$project", measured(plan).get());
    O group{{QStringLiteral("_id"), key()},
            {QStringLiteral("n"), op("$sum", 1)},
            {QStringLiteral("lo"), op("$min", QStringLiteral("$r"))},
            {QStringLiteral("hi"), op("$max", QStringLiteral("$r"))}};
    // Without a shape, the plan's verdict picks the documents to read whole.
    p.stage("$addFields", O{{QStringLiteral("e"), explained(plan)}});
    const J unexplained = op("$cond", A{QStringLiteral("$e"), QStringLiteral("$$REMOVE"),
                                        O{{QStringLiteral("r"), QStringLiteral("$r")},
                                          {QStringLiteral("i"), QStringLiteral("$_id")}}});
    group.insert(QStringLiteral("e"), op("$min", QStringLiteral("$e")));
    group.insert(QStringLiteral("w"), op("$push", unexplained));
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

QByteArray TallyPipelines::recordIdsOf(const std::vector<QByteArray> &ids)
{
    Pipeline p;
    BsonDocument match;
    bson_t condition, list;
    BSON_APPEND_DOCUMENT_BEGIN(match.get(), "_id", &condition);
    BSON_APPEND_ARRAY_BEGIN(&condition, "$in", &list);
    for (std::size_t i = 0; i < ids.size(); ++i)
        bsonraw::append(&list, std::to_string(i).c_str(), -1, ids[i]);
    bson_append_array_end(&condition, &list);
    bson_append_document_end(match.get(), &condition);
    p.stage("$match", match.get());
    p.stage("$project", O{{QStringLiteral("r"), op("$meta", QStringLiteral("recordId"))}});
    return p.finish();
}

QByteArray TallyPipelines::candidates(const MeasurePlan &plan, const Scope &s,
                                      const std::vector<Fence> &fences,
                                      const std::vector<std::int64_t> &recordIds, bool placed)
{
    Pipeline p;
    scope(p, s, false);
    if (!placed && recordIds.empty())
        preFenced(p, plan, fences);
    candidateValues(p, plan);
    if (placed)
        p.stage("$setWindowFields",
                O{{QStringLiteral("sortBy"), O{{QStringLiteral("r"), 1}}},
                  {QStringLiteral("output"),
                   O{{QStringLiteral("p"), O{{QStringLiteral("$documentNumber"), O{}}}}}}});
    return fenced(p, named(fences), recordIds);
}

QByteArray TallyPipelines::tied(const MeasurePlan &plan, const Scope &s, const Fence &fence)
{
    Pipeline p;
    scope(p, s, false);
    candidateValues(p, plan);
    BsonDocument match;
    bson_append_int64(match.get(), tailField(fence.tail).toUtf8().constData(), -1,
                      clamped(fence.atLeast));
    p.stage("$match", match.get());
    p.stageNumber("$limit", std::max<std::uint64_t>(fence.tied, 1));
    return p.finish();
}

} // namespace oe
