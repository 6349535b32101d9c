#include "measure/MeasureProjection.h"

#include "bson/internal/BsonDocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>
#include <memory>

namespace oe {

namespace {

using J = QJsonValue;
using A = QJsonArray;
using O = QJsonObject;

J op(const char *name, const J &argument)
{
    return O{{QString::fromLatin1(name), argument}};
}
J typeOf(const QString &expr)
{
    return op("$type", expr);
}
J sizeOfValue(const QString &expr)
{
    return op("$bsonSize", O{{QStringLiteral("x"), expr}});
}
J mapOver(const J &input, const char *as, const J &in)
{
    return op("$map", O{{QStringLiteral("input"), input},
                        {QStringLiteral("as"), QString::fromLatin1(as)},
                        {QStringLiteral("in"), in}});
}
J filterOver(const J &input, const char *as, const J &cond)
{
    return op("$filter", O{{QStringLiteral("input"), input},
                           {QStringLiteral("as"), QString::fromLatin1(as)},
                           {QStringLiteral("cond"), cond}});
}
J typeSet(const J &input)
{
    return op("$setUnion", A{mapOver(input, "t", typeOf(QStringLiteral("$$t")))});
}
J letIn(const char *name, const J &value, const J &in)
{
    return op("$let", O{{QStringLiteral("vars"), O{{QString::fromLatin1(name), value}}},
                        {QStringLiteral("in"), in}});
}
QString path(const QString &base, const std::string &name)
{
    return base + QLatin1Char('.') + QString::fromStdString(name);
}

// A child's values in the array $$a (the elements that are documents holding the field),
// as [values, bytes, types, [lengths], arrays' bytes, their elements' types].
J childRecord(const MeasurePlan::Child &child)
{
    const J arrays = filterOver(QStringLiteral("$$v"), "r", op("$isArray", QStringLiteral("$$r")));
    const J elementTypes = op(
        "$reduce",
        O{{QStringLiteral("input"), QStringLiteral("$$q")},
          {QStringLiteral("initialValue"), A{}},
          {QStringLiteral("in"),
           op("$setUnion", A{QStringLiteral("$$value"), mapOver(QStringLiteral("$$this"), "y",
                                                                typeOf(QStringLiteral("$$y")))})}});
    const J ofArrays =
        A{mapOver(QStringLiteral("$$q"), "r", op("$size", QStringLiteral("$$r"))),
          op("$sum", mapOver(QStringLiteral("$$q"), "r", sizeOfValue(QStringLiteral("$$r")))),
          elementTypes};
    const J record =
        A{op("$size", QStringLiteral("$$v")),
          op("$sum", mapOver(QStringLiteral("$$v"), "x", sizeOfValue(QStringLiteral("$$x")))),
          typeSet(QStringLiteral("$$v")), letIn("q", arrays, ofArrays)};
    // A field path through an array skips the elements without the field (and the non-documents).
    return letIn("v", path(QStringLiteral("$$a"), child.name), record);
}

// The summary of the array at `expr`, or null where it holds no array.
J summary(const QString &expr, const MeasurePlan::Summary &s)
{
    A record{op("$size", QStringLiteral("$$a")), sizeOfValue(QStringLiteral("$$a")),
             typeSet(QStringLiteral("$$a"))};
    for (const MeasurePlan::Child &c : s.children)
        record.append(childRecord(c));
    return letIn("a", expr, op("$cond", A{op("$isArray", QStringLiteral("$$a")), record, J()}));
}

// True when the summary in `var` cannot stand for its array: an array among its elements, or
// more bytes per element than the plan learnt to expect.
J summaryFallsShort(const QString &var, const MeasurePlan::Summary &s)
{
    const J count = op("$arrayElemAt", A{var, 0});
    const J bytes = op("$arrayElemAt", A{var, 1});
    const J types = op("$arrayElemAt", A{var, 2});
    const J limit = op("$add", A{op("$multiply", A{count, qint64(s.elementBytesLimit)}), 64});
    return op("$and",
              A{op("$isArray", var), op("$or", A{op("$in", A{QStringLiteral("array"), types}),
                                                 op("$gt", A{bytes, limit})})});
}

// The plan's paths as a tree of field names, so documents on the way are merged once.
struct PathTree
{
    QString variable; // the summary's $let variable, at a summarised path
    std::map<std::string, std::unique_ptr<PathTree>> children;
};

J skeletonOf(const QString &expr, const PathTree &tree)
{
    if (!tree.variable.isEmpty())
        return op("$ifNull", A{tree.variable, expr});
    O replaced;
    for (const auto &[name, child] : tree.children)
        replaced.insert(QString::fromStdString(name), skeletonOf(path(expr, name), *child));
    return op("$cond", A{op("$eq", A{typeOf(expr), QStringLiteral("object")}),
                         op("$mergeObjects", A{expr, replaced}), expr});
}

QByteArray toBson(const O &projection)
{
    const auto doc =
        BsonDocument::fromJson(QJsonDocument(projection).toJson(QJsonDocument::Compact));
    return doc ? doc->bytes() : QByteArray();
}

} // namespace

QByteArray MeasureProjection::build(const MeasurePlan &plan)
{
    PathTree root;
    O summaries;
    A fallsShort;
    for (std::size_t i = 0; i < plan.summaries.size(); ++i) {
        const MeasurePlan::Summary &s = plan.summaries[i];
        PathTree *at = &root;
        QString expr;
        for (const std::string &segment : s.segments) {
            auto &next = at->children[segment];
            if (!next)
                next = std::make_unique<PathTree>();
            at = next.get();
            expr = expr.isEmpty() ? QStringLiteral("$") + QString::fromStdString(segment)
                                  : path(expr, segment);
        }
        const QString name = QStringLiteral("p%1").arg(i);
        at->variable = QStringLiteral("$$") + name;
        summaries.insert(name, summary(expr, s));
        fallsShort.append(summaryFallsShort(at->variable, s));
    }
    O replaced;
    for (const auto &[name, child] : root.children)
        replaced.insert(QString::fromStdString(name),
                        skeletonOf(QStringLiteral("$") + QString::fromStdString(name), *child));
    const J skeleton = op("$mergeObjects", A{QStringLiteral("$$ROOT"), replaced});
    const J whole = fallsShort.isEmpty() ? J(false) : op("$or", fallsShort);
    const J measured =
        op("$cond", A{whole, O{{QString::fromLatin1(kWhole), QStringLiteral("$$ROOT")}},
                      O{{QString::fromLatin1(kSkeleton), skeleton}}});
    const J document =
        summaries.isEmpty()
            ? measured
            : op("$let", O{{QStringLiteral("vars"), summaries}, {QStringLiteral("in"), measured}});
    return toBson(O{{QStringLiteral("_id"), 1},
                    {QString::fromLatin1(kSize), op("$bsonSize", QStringLiteral("$$ROOT"))},
                    {QString::fromLatin1(kDocument), document}});
}

QByteArray MeasureProjection::discovery(int keep)
{
    const J cut =
        op("$cond", A{op("$isArray", QStringLiteral("$$f.v")),
                      op("$slice", A{QStringLiteral("$$f.v"), keep}), QStringLiteral("$$f.v")});
    const J fields =
        mapOver(op("$objectToArray", QStringLiteral("$$ROOT")), "f",
                O{{QStringLiteral("k"), QStringLiteral("$$f.k")}, {QStringLiteral("v"), cut}});
    return toBson(O{{QStringLiteral("_id"), 0},
                    {QString::fromLatin1(kDocument), op("$arrayToObject", fields)}});
}

} // namespace oe
