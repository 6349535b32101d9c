#include "measure/MeasureProjection.h"

#include "bson/BsonTypes.h"
#include "measure/internal/ExpressionJson.h"

#include <QStringList>

namespace oe {

namespace {

using namespace expr;
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

// The document with the value at `segments[from..]` below `input` removed ($unsetField, and
// $setField for each object on the way): `prefix` is the `$` path of `input` ("" at the root).
J without(const std::vector<std::string> &segments, std::size_t from, const J &input,
          const QString &prefix)
{
    const QString field = QString::fromStdString(segments[from]);
    if (from + 1 == segments.size())
        return op("$unsetField",
                  O{{QStringLiteral("field"), field}, {QStringLiteral("input"), input}});
    const QString at =
        prefix.isEmpty() ? QStringLiteral("$") + field : path(prefix, segments[from]);
    return op("$setField", O{{QStringLiteral("field"), field},
                             {QStringLiteral("input"), input},
                             {QStringLiteral("value"), without(segments, from + 1, at, at)}});
}

// $bsonSize({x: array}) of the array at the summary's path, as the plan asks for it: wrapped,
// or the document's size less its size without the array, plus what {x: …} adds and the key
// in place takes away (8 - (2 + the key's bytes)): the same number either way.
J arrayBytes(const MeasurePlan &plan, const MeasurePlan::Summary &s)
{
    if (plan.arrayBytes == MeasurePlan::ArrayBytes::Wrapped)
        return sizeOfValue(QStringLiteral("$$a"));
    const J root = op("$bsonSize", QStringLiteral("$$ROOT"));
    const J rest = op("$bsonSize", without(s.segments, 0, QStringLiteral("$$ROOT"), QString()));
    const int adjust = 6 - int(s.segments.back().size());
    return op("$add", A{op("$subtract", A{root, rest}), adjust});
}

// The lengths of the arrays in the field `child` of the array $$a's elements.
J childLengths(const MeasurePlan::Child &child)
{
    const J arrays = filterOver(path(QStringLiteral("$$a"), child.name), "r",
                                op("$isArray", QStringLiteral("$$r")));
    return mapOver(arrays, "r", op("$size", QStringLiteral("$$r")));
}

// What the elements' types are: with one type learnt, the number of elements of another;
// else the list of the types present.
J elementCheck(const MeasurePlan::Summary &s)
{
    const QStringList names = BsonTypes::names(s.elementTypes & ~BsonTypes::kArrayBit);
    if (names.size() == 1 && !(s.elementTypes & BsonTypes::kArrayBit)) {
        const J other = op("$ne", A{typeOf(QStringLiteral("$$t")), names.first()});
        return op("$size", filterOver(QStringLiteral("$$a"), "t", other));
    }
    return typeSet(QStringLiteral("$$a"));
}

// The record of the value at `expr`: null where it is missing, "!" where an object on the way
// is an array (the path would gather values from its elements), [$type, $bsonSize({x: value})]
// where it is no array, else [length, $bsonSize({x: array}), element check, child lengths...].
J record(const MeasurePlan &plan, const MeasurePlan::Summary &s)
{
    QString expr;
    A onTheWay;
    for (const std::string &segment : s.segments) {
        if (!expr.isEmpty())
            onTheWay.append(op("$isArray", expr));
        expr = expr.isEmpty() ? QStringLiteral("$") + QString::fromStdString(segment)
                              : path(expr, segment);
    }
    A array{op("$size", QStringLiteral("$$a")), arrayBytes(plan, s)};
    if (plan.elementCheck == MeasurePlan::ElementCheck::Known && s.hasOneElementType())
        array.append(0);
    else if (!plan.projectsElementCheck(s))
        array.append(elementCheck(s));
    for (const MeasurePlan::Child &c : s.children)
        array.append(childLengths(c));
    const J value =
        op("$cond", A{op("$eq", A{typeOf(QStringLiteral("$$a")), QStringLiteral("missing")}), J(),
                      A{typeOf(QStringLiteral("$$a")), sizeOfValue(QStringLiteral("$$a"))}});
    const J measured =
        letIn("a", expr, op("$cond", A{op("$isArray", QStringLiteral("$$a")), array, value}));
    if (onTheWay.isEmpty())
        return measured;
    return op("$cond", A{op("$or", onTheWay), QString::fromLatin1(MeasureProjection::kThroughArray),
                         measured});
}

QByteArray toBson(const O &projection)
{
    return expr::toDocument(projection).bytes();
}

} // namespace

QByteArray MeasureProjection::build(const MeasurePlan &plan)
{
    return toBson(fields(plan));
}

QJsonObject MeasureProjection::fields(const MeasurePlan &plan)
{
    A records;
    O projection{{QStringLiteral("_id"), 1},
                 {QString::fromLatin1(kSize), op("$bsonSize", QStringLiteral("$$ROOT"))}};
    for (const MeasurePlan::Summary &s : plan.summaries) {
        records.append(record(plan, s));
        if (plan.projectsElementCheck(s)) {
            const QString type = BsonTypes::names(s.elementTypes).first();
            projection.insert(QString::fromStdString(s.segments.front()),
                              op("$elemMatch", op("$not", op("$type", type))));
        }
    }
    projection.insert(QString::fromLatin1(kRecords), records);
    return projection;
}

QByteArray MeasureProjection::discovery(int keep, Checks checks)
{
    const J cut =
        op("$cond", A{op("$isArray", QStringLiteral("$$f.v")),
                      op("$slice", A{QStringLiteral("$$f.v"), keep}), QStringLiteral("$$f.v")});
    const J fields =
        mapOver(op("$objectToArray", QStringLiteral("$$ROOT")), "f",
                O{{QStringLiteral("k"), QStringLiteral("$$f.k")}, {QStringLiteral("v"), cut}});
    O projection{{QStringLiteral("_id"), 0},
                 {QString::fromLatin1(kDocument), op("$arrayToObject", fields)}};
    if (checks == Checks::Operators) {
        const J empty = op("$literal", O{});
        const J removed = op("$unsetField", O{{QStringLiteral("field"), QStringLiteral("b")},
                                              {QStringLiteral("input"), empty}});
        const J set = op("$setField", O{{QStringLiteral("field"), QStringLiteral("a")},
                                        {QStringLiteral("input"), empty},
                                        {QStringLiteral("value"), removed}});
        projection.insert(QStringLiteral("c"), op("$bsonSize", set));
    }
    return toBson(projection);
}

} // namespace oe
