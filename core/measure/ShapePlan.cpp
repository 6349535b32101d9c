#include "measure/ShapePlan.h"

#include "bson/BsonTypes.h"
#include "measure/internal/ExpressionJson.h"

#include <cmath>
#include <cstring>

namespace oe {

using namespace expr;

namespace {

A aliases(std::uint32_t mask)
{
    A out;
    for (const QString &name : BsonTypes::names(mask))
        out.append(name);
    return out;
}

// A version value (DocumentId's raw form) as extended JSON, its type kept.
J versionValue(const std::string &raw)
{
    const auto *bytes = reinterpret_cast<const std::uint8_t *>(raw.data()) + 1;
    const std::size_t length = raw.size() - 1;
    switch (raw.empty() ? 0 : int(std::uint8_t(raw[0]))) {
    case 0x02:
        return QString::fromUtf8(raw.data() + 1, qsizetype(length));
    case 0x10:
        if (length == 4)
            return O{{QStringLiteral("$numberInt"),
                      QString::number(std::int32_t(bytes[0] | bytes[1] << 8 | bytes[2] << 16 |
                                                   std::uint32_t(bytes[3]) << 24))}};
        break;
    case 0x12:
    case 0x01:
        if (length == 8) {
            std::uint64_t v = 0;
            for (int b = 7; b >= 0; --b)
                v = v << 8 | bytes[b];
            if (raw[0] == 0x12)
                return O{{QStringLiteral("$numberLong"), QString::number(std::int64_t(v))}};
            double d = 0;
            std::memcpy(&d, &v, 8);
            if (!std::isfinite(d)) // (NaN's payloads differ, the server's NaNs are one value)
                return J();
            return O{{QStringLiteral("$numberDouble"), QString::number(d, 'g', 17)}};
        }
        break;
    default:
        break;
    }
    return J();
}

// A version field's values: one the discovery saw (the server's enum compares numbers by
// value, as the versions do) or one no version has.
A versionValues(const ShapePlan::Path &p)
{
    A values;
    for (const std::string &raw : p.versions)
        if (const J v = versionValue(raw); !v.isNull())
            values.append(v);
    A anyOf;
    if (!values.isEmpty())
        anyOf.append(O{{QStringLiteral("enum"), values}});
    if (const std::uint32_t unfit = p.types & ~ShapePlan::kVersionTypes)
        anyOf.append(O{{QStringLiteral("bsonType"), aliases(unfit)}});
    return anyOf;
}

// The schema of the fields `parent` holds (-1: the document's), closed.
O closed(const ShapePlan &plan, int parent)
{
    O properties;
    if (parent < 0)
        properties.insert(
            QStringLiteral("_id"),
            O{{QStringLiteral("not"), O{{QStringLiteral("bsonType"),
                                         A{QStringLiteral("object"), QStringLiteral("array")}}}}});
    for (std::size_t i = 0; i < plan.paths.size(); ++i) {
        const ShapePlan::Path &p = plan.paths[i];
        if (p.parent != parent)
            continue;
        O schema = p.holds(BsonTypes::kDocumentBit) ? closed(plan, int(i)) : O{};
        schema.insert(QStringLiteral("bsonType"), aliases(p.types));
        if (p.version)
            schema.insert(QStringLiteral("anyOf"), versionValues(p));
        if (p.holds(BsonTypes::kArrayBit)) {
            O items = p.elementType == BsonTypes::kDocumentBit ? closed(plan, int(i)) : O{};
            items.insert(QStringLiteral("bsonType"), aliases(p.elementType));
            if (p.elementType != 0)
                schema.insert(QStringLiteral("items"), items);
            else
                schema.insert(QStringLiteral("maxItems"), 0);
        }
        properties.insert(QString::fromStdString(p.segments.back()), schema);
    }
    return O{{QStringLiteral("properties"), properties},
             {QStringLiteral("additionalProperties"), false}};
}

} // namespace

QString ShapePlan::Path::expression() const
{
    QString out = QStringLiteral("$");
    for (std::size_t i = 0; i < segments.size(); ++i)
        out += (i ? QStringLiteral(".") : QString()) + QString::fromStdString(segments[i]);
    return out;
}

std::vector<int> ShapePlan::variablePaths() const
{
    std::vector<int> out;
    const std::uint32_t variable = BsonTypes::bit(0x02) | BsonTypes::bit(0x05);
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (((paths[i].types | (paths[i].inElements ? paths[i].elementType : 0)) & variable) &&
            !paths[i].version)
            out.push_back(int(i));
    return out;
}

std::vector<int> ShapePlan::objectArrays() const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (paths[i].holds(BsonTypes::kArrayBit) && paths[i].elementType == BsonTypes::kDocumentBit)
            out.push_back(int(i));
    return out;
}

std::vector<int> ShapePlan::elementFields() const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (paths[i].inElements)
            out.push_back(int(i));
    return out;
}

std::vector<int> ShapePlan::nestedArrays(int a) const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (paths[i].inElements && paths[i].parent == a && paths[i].holds(BsonTypes::kArrayBit))
            out.push_back(int(i));
    return out;
}

std::vector<int> ShapePlan::mixedPaths() const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (paths[i].mixedElements())
            out.push_back(int(i));
    return out;
}

std::vector<int> ShapePlan::versionPaths() const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (paths[i].version)
            out.push_back(int(i));
    return out;
}

std::vector<int> ShapePlan::objectPaths() const
{
    std::vector<int> out;
    for (std::size_t i = 0; i < paths.size(); ++i)
        if (paths[i].holds(BsonTypes::kDocumentBit))
            out.push_back(int(i));
    return out;
}

QByteArray ShapePlan::regular() const
{
    const O schema{{QStringLiteral("$jsonSchema"), closed(*this, -1)}};
    const O size{{QStringLiteral("$expr"),
                  op("$lte", A{op("$bsonSize", QStringLiteral("$$ROOT")), double(sizeLimit)})}};
    return toDocument(O{{QStringLiteral("$and"), A{schema, size}}}).bytes();
}

} // namespace oe
