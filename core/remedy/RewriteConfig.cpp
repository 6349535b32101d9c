#include "remedy/RewriteConfig.h"

#include "analysis/FieldProfile.h"
#include "guard/GuardRule.h"
#include "mongo/NamespaceNames.h"
#include "shape/ShapeFlag.h"
#include "shape/ShapeQuery.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace oe {

QString rewriteKindName(RewriteKind kind)
{
    switch (kind) {
    case RewriteKind::KeysToArray:
        return QStringLiteral("keys_to_array");
    case RewriteKind::ConvertType:
        return QStringLiteral("convert");
    case RewriteKind::Extract:
        return QStringLiteral("extract");
    case RewriteKind::GridFs:
        return QStringLiteral("gridfs");
    case RewriteKind::Attributes:
        break;
    }
    return QStringLiteral("attributes");
}

namespace {

QString underscored(const QString &path)
{
    QString out = path;
    return out.replace(QLatin1Char('.'), QLatin1Char('_'));
}

QString plainNameProblem(const QString &what, const QString &name)
{
    if (name.isEmpty() || name.startsWith(QLatin1Char('$')) || name.contains(QLatin1Char('.')) ||
        name.contains(QChar(0)))
        return QStringLiteral("%1 '%2': it must be a plain name (not empty, no '$' first, no "
                              "'.')")
            .arg(what, name);
    return {};
}

} // namespace

QString RewriteConfig::side() const
{
    return sideCollection.isEmpty()
               ? collection + QLatin1Char('_') + underscored(path) + QStringLiteral("_full")
               : sideCollection;
}

QString RewriteConfig::flag() const
{
    return flagField.isEmpty() ? QStringLiteral("has_full_") + underscored(path) : flagField;
}

QString RewriteConfig::storeName() const
{
    return kind == RewriteKind::GridFs ? QStringLiteral("the GridFS bucket %1").arg(bucket)
                                       : QStringLiteral("the side collection %1").arg(side());
}

QString RewriteConfig::sideLeaf() const
{
    return path.section(QLatin1Char('.'), -1);
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
                                                         const QString &collection,
                                                         qint64 bigScalarBytes)
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
    } else if (flag.kind == ShapeFlag::Kind::BigScalar) {
        config.kind = RewriteKind::Extract;
        config.minBytes = bigScalarBytes;
    } else {
        return std::nullopt;
    }
    if (field.insideArray || !config.problem().isEmpty())
        return std::nullopt;
    return config;
}

std::optional<RewriteConfig> RewriteConfig::forSparseFamily(const ShapeFlag &flag,
                                                            const QString &collection)
{
    if (flag.kind != ShapeFlag::Kind::SparseFields)
        return std::nullopt;
    RewriteConfig config;
    config.collection = collection;
    config.kind = RewriteKind::Attributes;
    for (const std::string &member : flag.members) {
        const QString name = QString::fromStdString(member);
        if (plainNameProblem(QString(), name).isEmpty() && name != QLatin1String("_id"))
            config.fields << name;
    }
    if (config.fields.isEmpty())
        return std::nullopt;
    // The array's name: one no member holds.
    for (const QString &name : {QStringLiteral("attrs"), QStringLiteral("attributes")})
        if (!config.fields.contains(name)) {
            config.path = name;
            break;
        }
    for (int n = 2; config.path.isEmpty(); ++n)
        if (const QString name = QStringLiteral("attrs_%1").arg(n); !config.fields.contains(name))
            config.path = name;
    return config.problem().isEmpty() ? std::optional<RewriteConfig>(config) : std::nullopt;
}

QStringList RewriteConfig::indexKeys() const
{
    return {path + QLatin1Char('.') + keyName, path + QLatin1Char('.') + valueName};
}

bool RewriteConfig::sameRewrite(const RewriteConfig &other) const
{
    RewriteConfig a = *this, b = other;
    a.fields.sort();
    b.fields.sort();
    return a == b;
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
    if (kind == RewriteKind::KeysToArray || kind == RewriteKind::Attributes) {
        for (const QString &name : {keyName, valueName})
            if (QString p = plainNameProblem(QStringLiteral("element field name"), name);
                !p.isEmpty())
                return p;
        if (keyName == valueName)
            return QStringLiteral("the key and value fields are both named '%1'").arg(keyName);
    }
    if (kind == RewriteKind::GridFs) {
        if (QString p = NamespaceNames::collectionProblem(QStringLiteral("the GridFS bucket"),
                                                          bucket + QStringLiteral(".chunks"));
            bucket.isEmpty() || !p.isEmpty())
            return QStringLiteral("GridFS bucket '%1': not a name a bucket can have").arg(bucket);
        for (const QString &part : {QStringLiteral(".files"), QStringLiteral(".chunks")})
            if (collection == bucket + part)
                return QStringLiteral("GridFS bucket '%1': its %2 collection is the collection "
                                      "rewritten; name another bucket")
                    .arg(bucket, bucket + part);
        if (minBytes < 0)
            return QStringLiteral("the smallest size must be 0 or more");
    }
    if (kind == RewriteKind::Attributes)
        return attributesProblem();
    return kind == RewriteKind::Extract ? extractProblem() : QString();
}

QString RewriteConfig::attributeArrayProblem() const
{
    for (const auto &[what, name] : {std::pair{QStringLiteral("the attribute array"), path},
                                     std::pair{QStringLiteral("element field name"), keyName},
                                     std::pair{QStringLiteral("element field name"), valueName}})
        if (QString p = plainNameProblem(what, name); !p.isEmpty())
            return p;
    if (keyName == valueName)
        return QStringLiteral("the key and value fields are both named '%1'").arg(keyName);
    return {};
}

QString RewriteConfig::attributesProblem() const
{
    if (QString p = attributeArrayProblem(); !p.isEmpty())
        return p;
    if (fields.isEmpty())
        return QStringLiteral("the attribute rewrite needs the fields it moves (--fields)");
    QStringList seen;
    for (const QString &field : fields) {
        if (QString p = plainNameProblem(QStringLiteral("field"), field); !p.isEmpty())
            return p;
        if (field == QLatin1String("_id") || field == path)
            return QStringLiteral("field '%1': _id and the array '%2' cannot be moved into it")
                .arg(field, path);
        if (seen.contains(field))
            return QStringLiteral("field '%1' is named twice").arg(field);
        seen << field;
    }
    return {};
}

QString RewriteConfig::extractProblem() const
{
    if (QString p =
            NamespaceNames::collectionProblem(QStringLiteral("the side collection"), side());
        !p.isEmpty())
        return p;
    if (side() == collection || isJournal(side()))
        return QStringLiteral("the side collection '%1' is the collection or a journal: name "
                              "another")
            .arg(side());
    if (QString p = plainNameProblem(QStringLiteral("flag field"), flag()); !p.isEmpty())
        return p;
    if (flag() == QLatin1String("_id") || flag() == path.section(QLatin1Char('.'), 0, 0))
        return QStringLiteral("flag field '%1' collides with _id or with '%2'").arg(flag(), path);
    if (minBytes < 0 || excerptChars < 0)
        return QStringLiteral("the smallest size and the excerpt's length must be 0 or more");
    for (const QString &key : excerptKeys)
        if (QString p = plainNameProblem(QStringLiteral("excerpt key"), key); !p.isEmpty())
            return p;
    return {};
}

QString RewriteConfig::describe() const
{
    if (kind == RewriteKind::KeysToArray)
        return QStringLiteral("%1: keys to an array of {%2, %3}").arg(path, keyName, valueName);
    if (kind == RewriteKind::Extract)
        return QStringLiteral("%1: extracted to %2").arg(path, side());
    if (kind == RewriteKind::GridFs)
        return QStringLiteral("%1: to GridFS bucket %2").arg(path, bucket);
    if (kind == RewriteKind::Attributes)
        return QStringLiteral("%1 sparse fields to %2: [{%3, %4}]")
            .arg(fields.size())
            .arg(path, keyName, valueName);
    return QStringLiteral("%1: to %2").arg(path, targetType);
}

QString RewriteConfig::indexSuggestion() const
{
    if (kind == RewriteKind::Attributes) // QJsonObject would sort the keys: k first, v second
        return QStringLiteral("{%1: 1, %2: 1}")
            .arg(QString::fromUtf8(
                     QJsonDocument(QJsonArray{indexKeys().at(0)}).toJson(QJsonDocument::Compact))
                     .mid(1)
                     .chopped(1),
                 QString::fromUtf8(
                     QJsonDocument(QJsonArray{indexKeys().at(1)}).toJson(QJsonDocument::Compact))
                     .mid(1)
                     .chopped(1));
    if (kind != RewriteKind::KeysToArray)
        return {};
    const QJsonObject index{{path + QLatin1Char('.') + keyName, 1}};
    return QString::fromUtf8(QJsonDocument(index).toJson(QJsonDocument::Compact));
}

ExtractLayout RewriteConfig::extractLayout() const
{
    return {collection, path, side(), sideLeaf(), flag(), excerptChars, excerptKeys};
}

} // namespace oe
