#include "measure/internal/TallyStages.h"

#include "bson/BsonTypes.h"

#include <algorithm>

namespace oe::tallystages {

namespace {
J oneIf(const J &condition)
{
    return op("$cond", A{condition, 1, 0});
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

} // namespace

J typeAt(const ShapePlan::Path &p)
{
    return op("$type", p.expression());
}

namespace {

// The array at `path`, or [] where it holds none.
J arrayAt(const QString &path)
{
    return op("$cond", A{op("$isArray", path), path, A()});
}

// How many elements of the array in $$e hold a value of each type of `types` at `at` ("$$this"
// or a field of it), in bit order.
A countsPerType(std::uint32_t types, const QString &at)
{
    A counts;
    for (const QString &type : BsonTypes::names(types))
        counts.append(op("$size", op("$filter", O{{QStringLiteral("input"), QStringLiteral("$$e")},
                                                  {QStringLiteral("cond"),
                                                   op("$eq", A{op("$type", at), type})}})));
    return counts;
}

// `in` with $$e the array at `path` ([] where it holds none).
J overArray(const QString &path, const J &in)
{
    return op("$let", O{{QStringLiteral("vars"), O{{QStringLiteral("e"), arrayAt(path)}}},
                        {QStringLiteral("in"), in}});
}

// The bytes a string or binary `value` (of a path of `types`) holds past an empty one's.
J extraOf(std::uint32_t types, const QString &value)
{
    A branches;
    if (types & BsonTypes::bit(0x02))
        branches.append(
            O{{QStringLiteral("case"), op("$eq", A{op("$type", value), QStringLiteral("string")})},
              {QStringLiteral("then"), op("$strLenBytes", value)}});
    if (types & BsonTypes::bit(0x05))
        branches.append(
            O{{QStringLiteral("case"), op("$eq", A{op("$type", value), QStringLiteral("binData")})},
              {QStringLiteral("then"), op("$binarySize", value)}});
    return op("$switch", O{{QStringLiteral("branches"), branches}, {QStringLiteral("default"), 0}});
}

QString elementValue(const ShapePlan::Path &p)
{
    return QStringLiteral("$$this.") + QString::fromStdString(p.segments.back());
}

// A field of an array's objects of one type: the schema holds a regular document's elements
// to it, so each value the path gathers over the elements is one element's, of that type.
bool oneType(const ShapePlan::Path &p)
{
    return p.inElements && p.types != 0 && (p.types & (p.types - 1)) == 0;
}

// The values of element field `p` over its array's elements ("$a.f": the server's own
// traversal, an element without the field left out; [] where the path holds no array): one
// native walk of the elements instead of an expression evaluated for each (a third of the
// tallies' time on the demo's feeds).
J gathered(const ShapePlan &shape, const ShapePlan::Path &p,
           Gathering gathering = Gathering::Inline)
{
    if (gathering == Gathering::Hoisted)
        return QStringLiteral("$g%1").arg(&p - shape.paths.data());
    const QString array = shape.paths[std::size_t(p.parent)].expression();
    return op("$cond",
              A{op("$isArray", array),
                QString(array + QLatin1Char('.') + QString::fromStdString(p.segments.back())),
                A()});
}

// The digits of the indexes 0 … n-1 ("0" … "n-1"), summed: n + (n-10)+ + (n-100)+ + … (an array
// of 16 MiB holds fewer than 10^7 elements).
J indexDigits(const J &n)
{
    A terms{n};
    double power = 10;
    for (int k = 1; k <= 7; ++k, power *= 10)
        terms.append(op("$max", A{0, op("$subtract", A{n, power})}));
    return op("$add", terms);
}

// The bytes of the strings (or binaries) of one-type element field `p`, from the size of the
// array they gather into, {x: [v0, v1, …]}: 13 bytes, and each value 7 + its index's digits +
// its bytes (type, key, its NUL, length, the string's NUL or the binary's subtype). Where `p`
// holds arrays of them, each value is such an array: 7 + its index's digits + 4 + 1 (length,
// terminator) less the 5 an empty one's own bytes count, and its values as above.
J gatheredBytes(const ShapePlan &shape, const ShapePlan::Path &p, Gathering gathering)
{
    auto overheadOf = [](const QString &array) {
        const J n = op("$size", array);
        return op("$add", A{op("$multiply", A{7, n}), indexDigits(n)});
    };
    A overhead{13, overheadOf(QStringLiteral("$$g"))};
    if (p.types == BsonTypes::kArrayBit)
        overhead.append(
            op("$sum", op("$map", O{{QStringLiteral("input"), QStringLiteral("$$g")},
                                    {QStringLiteral("as"), QStringLiteral("n")},
                                    {QStringLiteral("in"), overheadOf(QStringLiteral("$$n"))}})));
    const J bytes =
        op("$subtract", A{op("$bsonSize", O{{QStringLiteral("x"), QStringLiteral("$$g")}}),
                          op("$add", overhead)});
    return op("$let",
              O{{QStringLiteral("vars"), O{{QStringLiteral("g"), gathered(shape, p, gathering)}}},
                {QStringLiteral("in"), bytes}});
}

// Strings or binaries only, or arrays of one of them only.
bool gathersBytes(const ShapePlan::Path &p)
{
    const std::uint32_t string = BsonTypes::bit(0x02), binary = BsonTypes::bit(0x05);
    const std::uint32_t values = p.types == BsonTypes::kArrayBit ? p.elementType : p.types;
    return oneType(p) && (values == string || values == binary);
}

} // namespace

// Whether any element of the array at `array` (objects) holds an array at one of `fields`
// (fields of arrays only: whether any element holds one).
J anyNested(const ShapePlan &shape, const QString &array, const std::vector<int> &fields,
            Gathering gathering)
{
    const bool gather = std::all_of(fields.begin(), fields.end(), [&](int f) {
        return shape.paths[std::size_t(f)].types == BsonTypes::kArrayBit;
    });
    A any;
    for (const int f : fields) {
        const ShapePlan::Path &p = shape.paths[std::size_t(f)];
        any.append(gather ? op("$gt", A{op("$size", gathered(shape, p, gathering)), 0})
                          : op("$isArray", elementValue(p)));
    }
    if (gather)
        return op("$or", any);
    return op("$anyElementTrue", A{op("$map", O{{QStringLiteral("input"), array},
                                                {QStringLiteral("in"), op("$or", any)}})});
}

O gatheredFields(const ShapePlan &shape)
{
    O fields;
    for (std::size_t i = 0; i < shape.paths.size(); ++i)
        if (oneType(shape.paths[i]))
            fields.insert(QStringLiteral("g%1").arg(i), gathered(shape, shape.paths[i]));
    return fields;
}

J extraBytes(const ShapePlan &shape, std::size_t i, Gathering gathering)
{
    const ShapePlan::Path &p = shape.paths[i];
    if (!p.inElements)
        return extraOf(p.types, p.expression());
    if (gathersBytes(p))
        return gatheredBytes(shape, p, gathering);
    J each = extraOf(p.types, elementValue(p));
    if (p.holds(BsonTypes::kArrayBit)) // arrays in the elements: their own elements' bytes
        each = op("$cond",
                  A{op("$isArray", elementValue(p)),
                    op("$sum", op("$map", O{{QStringLiteral("input"), elementValue(p)},
                                            {QStringLiteral("as"), QStringLiteral("n")},
                                            {QStringLiteral("in"),
                                             extraOf(p.elementType, QStringLiteral("$$n"))}})),
                    0});
    return overArray(shape.paths[std::size_t(p.parent)].expression(),
                     op("$sum", op("$map", O{{QStringLiteral("input"), QStringLiteral("$$e")},
                                             {QStringLiteral("in"), each}})));
}

A shapeTypes(const ShapePlan &shape, Gathering gathering)
{
    A types;
    for (const ShapePlan::Path &path : shape.paths)
        types.append(path.inElements ? J(QStringLiteral("missing")) : typeAt(path));
    for (const int a : shape.objectArrays()) {
        // Elements (objects), and arrays in them: each a level deeper.
        const std::vector<int> nested = shape.nestedArrays(a);
        const J elements =
            nested.empty()
                ? J(QStringLiteral("object"))
                : op("$cond", A{anyNested(shape, QStringLiteral("$$e"), nested, gathering),
                                QStringLiteral("array"), QStringLiteral("object")});
        types.append(overArray(shape.paths[std::size_t(a)].expression(),
                               op("$cond", A{op("$gt", A{op("$size", QStringLiteral("$$e")), 0}),
                                             elements, QStringLiteral("missing")})));
    }
    return types;
}

A versionValues(const ShapePlan &shape)
{
    A versions;
    const A versionTypes{QStringLiteral("int"), QStringLiteral("long"), QStringLiteral("double"),
                         QStringLiteral("string")};
    for (const int v : shape.versionPaths()) {
        // (An object or another value no version has: null, not a group per value.)
        const QString path = shape.paths[std::size_t(v)].expression();
        versions.append(op("$cond", A{op("$in", A{op("$type", path), versionTypes}), path, J()}));
    }
    return versions;
}

A mixedCounts(const ShapePlan &shape)
{
    A mixed;
    for (const int m : shape.mixedPaths()) {
        const ShapePlan::Path &p = shape.paths[std::size_t(m)];
        mixed.append(
            overArray(p.expression(), countsPerType(p.elementType, QStringLiteral("$$this"))));
    }
    return mixed;
}

A elementFieldCounts(const ShapePlan &shape, Gathering gathering)
{
    A fields;
    for (const int e : shape.elementFields()) {
        const ShapePlan::Path &p = shape.paths[std::size_t(e)];
        fields.append(oneType(p) ? J(A{op("$size", gathered(shape, p, gathering))})
                                 : overArray(shape.paths[std::size_t(p.parent)].expression(),
                                             countsPerType(p.types, elementValue(p))));
    }
    return fields;
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
        if (p.inElements)
            continue; // (inside an array: not a field of the document's, no level of its own)
        vars.insert(typeVar(i).mid(2), typeAt(p));
        fields.append(presentVar(i));
        const int segments = int(p.segments.size());
        // An array of objects with elements: their fields one level further down.
        const std::vector<int> nested = shape.nestedArrays(int(i));
        const J elements =
            nested.empty()
                ? J(segments + 1)
                : op("$cond", A{anyNested(shape, p.expression(), nested, Gathering::Inline),
                                segments + 2, segments + 1});
        const J level =
            p.elementType == BsonTypes::kDocumentBit
                ? op("$cond", A{op("$eq", A{typeVar(i), QStringLiteral("array")}),
                                op("$cond", A{op("$gt", A{op("$size", p.expression()), 0}),
                                              elements, segments}),
                                segments})
                : J(segments);
        if (p.holds(BsonTypes::kDocumentBit) || p.holds(BsonTypes::kArrayBit))
            deepest.append(
                op("$cond",
                   A{op("$in", A{typeVar(i), A{QStringLiteral("object"), QStringLiteral("array")}}),
                     level, 0}));
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

QByteArray fenced(Pipeline &p, const std::vector<Listed> &fences,
                  const std::vector<std::int64_t> &recordIds)
{
    BsonDocument match;
    bson_t alternatives, one, condition;
    BSON_APPEND_ARRAY_BEGIN(match.get(), "$or", &alternatives);
    int n = 0;
    for (const auto &[field, f] : fences) {
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
        const auto &[field, f] = fences[i];
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
        if (f.lazyTies)
            continue; // (a pass of its own: TallyPipelines::tied)
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
        out.push_back({tailField(f.tail).toUtf8(), f});
    return out;
}

QByteArray listedField(int tail, bool shaped)
{
    return shaped ? QStringLiteral("h.%1").arg(shapeField(tail)).toUtf8()
                  : tailField(tail).toUtf8();
}

} // namespace oe::tallystages
