#include "remedy/RewriteConfig.h"

#include "analysis/FieldProfile.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/internal/RawValues.h"
#include "shape/ShapeFlag.h"
#include "shape/ShapeQuery.h"

namespace oe {

using rawvalues::plainNameProblem;
using rawvalues::underscored;

QString rewriteKindName(RewriteKind kind)
{
    return RemedyRegistry::of(kind).name();
}

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
    return RemedyRegistry::of(kind).storeName(*this);
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

namespace {

// The first rewrite a remedy of `scope` curing the flag suggests, named for the collection.
std::optional<RewriteConfig> suggested(Remedy::Scope scope, const ShapeFlag &flag,
                                       const FieldProfile &field, const QString &collection,
                                       qint64 bigScalarBytes)
{
    for (const Remedy *remedy : RemedyRegistry::curing(flag.kind)) {
        if (remedy->scope() != scope)
            continue;
        std::optional<RewriteConfig> config =
            remedy->suggest(flag, field, collection, bigScalarBytes);
        if (!config)
            continue;
        config->collection = collection;
        if (config->path.isEmpty())
            config->path = QString::fromStdString(flag.path);
        return config;
    }
    return std::nullopt;
}

} // namespace

std::optional<RewriteConfig>
RewriteConfig::forShapeFlag(const ShapeFlag &flag, const FieldProfile &field,
                            const QString &collection, qint64 bigScalarBytes, Suggestion suggestion)
{
    std::optional<RewriteConfig> config =
        suggested(Remedy::Scope::OneField, flag, field, collection, bigScalarBytes);
    if (!config || field.insideArray)
        return std::nullopt;
    if (config->problem().isEmpty())
        return config;
    // To complete: usable but for the new name the dialog asks for.
    RewriteConfig named = *config;
    named.newName = QStringLiteral("the_new_name");
    const bool asks = RemedyRegistry::of(config->kind).options().testFlag(Remedy::Option::NewName);
    return suggestion == Suggestion::ToComplete && asks && config->newName.isEmpty() &&
                   named.problem().isEmpty()
               ? config
               : std::nullopt;
}

std::optional<RewriteConfig> RewriteConfig::forSparseFamily(const ShapeFlag &flag,
                                                            const QString &collection)
{
    const FieldProfile none; // a family has no one field
    std::optional<RewriteConfig> config =
        suggested(Remedy::Scope::FieldFamily, flag, none, collection, 0);
    return config && config->problem().isEmpty() ? config : std::nullopt;
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
    if (!ShapeQuery::nameable(path.toStdString()) || path.contains(QChar(0)) ||
        path.split(QLatin1Char('.')).contains(QStringLiteral("_id")))
        return QStringLiteral("field path '%1': a rewrite cannot name it (an empty name, a name "
                              "starting with '$', one standing for many keys, or _id)")
            .arg(path);
    const Remedy &remedy = RemedyRegistry::of(kind);
    if (remedy.options().testFlag(Remedy::Option::KeyValueNames)) {
        for (const QString &name : {keyName, valueName})
            if (QString p = plainNameProblem(QStringLiteral("element field name"), name);
                !p.isEmpty())
                return p;
        if (keyName == valueName)
            return QStringLiteral("the key and value fields are both named '%1'").arg(keyName);
    }
    return remedy.problem(*this);
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

QString RewriteConfig::describe() const
{
    return RemedyRegistry::of(kind).describe(*this);
}

QString RewriteConfig::indexSuggestion() const
{
    return RemedyRegistry::of(kind).indexSuggestion(*this);
}

ExtractLayout RewriteConfig::extractLayout() const
{
    return {collection, path, side(), sideLeaf(), flag(), excerptChars, excerptKeys};
}

} // namespace oe
