#include "measure/ShapePlan.h"

#include "bson/BsonTypes.h"
#include "measure/internal/ExpressionJson.h"

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
        if (p.holds(BsonTypes::kArrayBit)) {
            if (p.elementType != 0)
                schema.insert(QStringLiteral("items"),
                              O{{QStringLiteral("bsonType"), aliases(p.elementType)}});
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
        if (paths[i].types & variable)
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
