// TallyPipelines' aggregations for the shape's tails (ShapePlan): by the rows' $type tuples.
#include "measure/TallyPipelines.h"

#include "bson/BsonTypes.h"
#include "measure/internal/TallyStages.h"

#include <string>

namespace oe {

using namespace tallystages;

namespace {

// {path: {$exists: …}} into `into`.
void exists(bson_t *into, const QByteArray &path, bool present)
{
    bson_t condition;
    bson_append_document_begin(into, path.constData(), -1, &condition);
    BSON_APPEND_BOOL(&condition, "$exists", present);
    bson_append_document_end(into, &condition);
}

// The clauses (into `list`, numbered from *n) of each array of objects' state in `tuple` (past
// its paths): without elements, with elements, or with arrays in them (the document's depth
// differs). Arrays are all their elements' fields there hold: present is an array.
void arrayStates(bson_t *list, int *n, const ShapePlan &shape,
                 const std::vector<std::uint32_t> &tuple)
{
    const std::vector<int> arrays = shape.objectArrays();
    for (std::size_t a = 0; a < arrays.size(); ++a) {
        const std::size_t at = shape.paths.size() + a;
        const std::uint32_t state = at < tuple.size() ? tuple[at] : 0;
        const QString array = shape.paths[std::size_t(arrays[a])].expression().mid(1);
        const std::string key = std::to_string((*n)++);
        bson_t clause, nested;
        BSON_APPEND_DOCUMENT_BEGIN(list, key.c_str(), &clause);
        if (state == BsonTypes::kArrayBit)
            BSON_APPEND_ARRAY_BEGIN(&clause, "$or", &nested);
        else
            exists(&clause, (array + QStringLiteral(".0")).toUtf8(), state != 0);
        int k = 0;
        for (const int f : shape.nestedArrays(arrays[a])) {
            const QByteArray field =
                (array + QLatin1Char('.') +
                 QString::fromStdString(shape.paths[std::size_t(f)].segments.back()))
                    .toUtf8();
            if (state == BsonTypes::kArrayBit) {
                bson_t one;
                const std::string index = std::to_string(k++);
                BSON_APPEND_DOCUMENT_BEGIN(&nested, index.c_str(), &one);
                exists(&one, field, true);
                bson_append_document_end(&nested, &one);
            } else if (state == BsonTypes::kDocumentBit) {
                exists(&clause, field, false);
            }
        }
        if (state == BsonTypes::kArrayBit)
            bson_append_array_end(&clause, &nested);
        bson_append_document_end(list, &clause);
    }
}

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
        bson_t list, clause;
        BSON_APPEND_ARRAY_BEGIN(&one, "$and", &list);
        int n = 0;
        for (std::size_t i = 0; i < shape.paths.size() && i < all[t]->size(); ++i) {
            const ShapePlan::Path &p = shape.paths[i];
            const std::uint32_t type = (*all[t])[i];
            if (p.inElements)
                continue; // (the tails' figures do not depend on them)
            const QByteArray path = p.expression().mid(1).toUtf8();
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
        arrayStates(&list, &n, shape, *all[t]);
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

QByteArray TallyPipelines::irregularTypes(const ShapePlan &shape,
                                          const std::vector<std::pair<int, std::uint32_t>> &unknown)
{
    A any;
    for (const auto &[i, type] : unknown) {
        const ShapePlan::Path &p = shape.paths[std::size_t(i)];
        const QString alias = BsonTypes::names(type).value(0);
        const O exact{{QStringLiteral("$expr"), op("$eq", A{typeAt(p), alias})}};
        // The matcher's own {path: {$type}} first, where it finds a superset: it looks into
        // arrays along the path, where the expression sees an array (so not for arrays).
        if (type == BsonTypes::kArrayBit) {
            any.append(exact);
            continue;
        }
        const O native{{p.expression().mid(1), O{{QStringLiteral("$type"), alias}}}};
        any.append(O{{QStringLiteral("$and"), A{native, exact}}});
    }
    return fromJson(O{{QStringLiteral("$or"), any}}).bytes();
}

QByteArray TallyPipelines::irregular(const Scope &s, const QByteArray &condition)
{
    Pipeline p;
    scope(p, s, true);
    p.stageBytes("$match", condition);
    p.stage("$project", O{{QStringLiteral("r"), op("$meta", QStringLiteral("recordId"))}});
    return p.finish();
}

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
        listed.push_back({listedField(l.fence.tail, true), l.fence});
    }
    if (byTuples(shape, all.size()))
        p.stage("$match", tuples(shape, all).get());
    shapeEntries(p, shape);
    return fenced(p, listed, {});
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
