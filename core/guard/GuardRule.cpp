#include "guard/GuardRule.h"

#include "analysis/FieldProfile.h"
#include "bson/BsonTypes.h"
#include "shape/ShapeFlag.h"
#include "shape/ShapeQuery.h"

namespace oe {

GuardRule GuardRule::maxItems(const SplitConfig &layout)
{
    GuardRule rule;
    rule.kind = Kind::MaxItems;
    rule.path = layout.field;
    rule.keep = layout.keep;
    rule.flagField = layout.flagField;
    return rule;
}

GuardRule GuardRule::bsonType(const QString &path, const QStringList &types, bool elements)
{
    GuardRule rule;
    rule.kind = Kind::BsonType;
    rule.path = path;
    rule.types = types;
    rule.elements = elements;
    return rule;
}

GuardRule GuardRule::forMixedType(const ShapeFlag &flag, const FieldProfile &field)
{
    const bool elements = flag.kind == ShapeFlag::Kind::MixedElementTypes;
    const std::uint32_t seen = elements ? field.elementTypeMask : field.typeMask;
    const std::uint32_t minority = BsonTypes::bitOfAlias(flag.type.toStdString());
    return bsonType(QString::fromStdString(flag.path), BsonTypes::names(seen & ~minority),
                    elements);
}

bool GuardRule::offersTypeRule(const ShapeFlag &flag)
{
    return (flag.kind == ShapeFlag::Kind::MixedTypes ||
            flag.kind == ShapeFlag::Kind::MixedElementTypes) &&
           ShapeQuery::nameable(flag.path);
}

bool GuardRule::sameTarget(const GuardRule &other) const
{
    if (kind != other.kind)
        return false;
    return kind == Kind::MaxItems || (path == other.path && elements == other.elements);
}

QString GuardRule::problem() const
{
    if (path.isEmpty())
        return QStringLiteral("the guard needs a field path");
    if (!ShapeQuery::nameable(path.toStdString()))
        return QStringLiteral("field path '%1': a guard cannot name it (an empty name, a name "
                              "starting with '$', or one standing for many keys)")
            .arg(path);
    if (kind == Kind::MaxItems)
        return keep < 0 ? QStringLiteral("--keep must be 0 or more") : QString();
    if (types.isEmpty())
        return QStringLiteral("field path '%1': the type guard needs at least one type").arg(path);
    for (const QString &type : types) {
        if (type != QLatin1String("number") && BsonTypes::bitOfAlias(type.toStdString()) == 0)
            return QStringLiteral("type '%1' is not a BSON type alias (string, int, long, double, "
                                  "decimal, number, bool, date, object, array, objectId, "
                                  "binData, null, ...)")
                .arg(type);
    }
    return {};
}

QString GuardRule::describe() const
{
    if (kind == Kind::MaxItems)
        return QStringLiteral("%1 at most %2 elements").arg(path).arg(keep);
    const QString list =
        types.size() > 1 ? QStringList(types.mid(0, types.size() - 1)).join(QStringLiteral(", ")) +
                               QStringLiteral(" or ") + types.last()
                         : types.value(0);
    return elements ? QStringLiteral("the elements of %1 are %2").arg(path, list)
                    : QStringLiteral("%1 is %2").arg(path, list);
}

QString GuardRule::cure() const
{
    return kind == Kind::MaxItems ? QStringLiteral("split") : QStringLiteral("fixed");
}

} // namespace oe
