#include "remedy/RewriteConfig.h"

#include "analysis/FieldProfile.h"
#include "guard/GuardRule.h"
#include "shape/ShapeFlag.h"
#include "shape/ShapeQuery.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace oe {

QString rewriteKindName(RewriteKind kind)
{
    return kind == RewriteKind::KeysToArray ? QStringLiteral("keys_to_array")
                                            : QStringLiteral("convert");
}

QString RewriteConfig::runId() const
{
    return rewriteKindName(kind) + QLatin1Char(':') + path;
}

QStringList RewriteConfig::convertibleTypes()
{
    return {QStringLiteral("double"), QStringLiteral("int"), QStringLiteral("long"),
            QStringLiteral("string")};
}

std::optional<RewriteConfig> RewriteConfig::forShapeFlag(const ShapeFlag &flag,
                                                         const FieldProfile &field,
                                                         const QString &collection)
{
    RewriteConfig config;
    config.collection = collection;
    config.path = QString::fromStdString(flag.path);
    if (flag.kind == ShapeFlag::Kind::KeysAsData) {
        config.kind = RewriteKind::KeysToArray;
    } else if (flag.kind == ShapeFlag::Kind::MixedTypes) {
        config.kind = RewriteKind::ConvertType;
        for (const QString &type : GuardRule::forMixedType(flag, field).types)
            if (convertibleTypes().contains(type)) {
                config.targetType = type;
                break;
            }
        if (config.targetType.isEmpty())
            return std::nullopt;
    } else {
        return std::nullopt;
    }
    if (field.insideArray || !config.problem().isEmpty())
        return std::nullopt;
    return config;
}

QString RewriteConfig::problem() const
{
    if (collection.isEmpty())
        return QStringLiteral("the rewrite needs a collection");
    if (path.isEmpty())
        return QStringLiteral("the rewrite needs a field path");
    if (!ShapeQuery::nameable(path.toStdString()) ||
        path.split(QLatin1Char('.')).contains(QStringLiteral("_id")))
        return QStringLiteral("field path '%1': a rewrite cannot name it (an empty name, a name "
                              "starting with '$', one standing for many keys, or _id)")
            .arg(path);
    if (kind == RewriteKind::ConvertType && !convertibleTypes().contains(targetType))
        return QStringLiteral("type '%1': a field converts to %2")
            .arg(targetType, convertibleTypes().join(QStringLiteral(", ")));
    if (kind == RewriteKind::KeysToArray) {
        for (const QString &name : {keyName, valueName})
            if (name.isEmpty() || name.startsWith(QLatin1Char('$')) ||
                name.contains(QLatin1Char('.')))
                return QStringLiteral("element field name '%1': it must be a plain name (not "
                                      "empty, no '$' first, no '.')")
                    .arg(name);
        if (keyName == valueName)
            return QStringLiteral("the key and value fields are both named '%1'").arg(keyName);
    }
    return {};
}

QString RewriteConfig::describe() const
{
    if (kind == RewriteKind::KeysToArray)
        return QStringLiteral("%1: keys to an array of {%2, %3}").arg(path, keyName, valueName);
    return QStringLiteral("%1: to %2").arg(path, targetType);
}

QString RewriteConfig::indexSuggestion() const
{
    if (kind != RewriteKind::KeysToArray)
        return {};
    const QJsonObject index{{path + QLatin1Char('.') + keyName, 1}};
    return QString::fromUtf8(QJsonDocument(index).toJson(QJsonDocument::Compact));
}

} // namespace oe
