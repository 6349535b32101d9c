#include "remedy/attributes/AttributesRemedy.h"

#include "remedy/attributes/AttributeDocument.h"
#include "remedy/internal/RawValues.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <string>

namespace oe {

using namespace rawvalues;

QString AttributesRemedy::cliHelp() const
{
    return QStringLiteral("Move the top-level fields named by --fields (a sparse family) into "
                          "one array of {k, v} at --path (attrs), in each document's order, and "
                          "index it {attrs.k: 1, attrs.v: 1} (the attribute pattern).");
}

QString AttributesRemedy::label() const
{
    return QStringLiteral("Sparse fields into one array of {k, v} (the attribute pattern)");
}

QString AttributesRemedy::offer(const RewriteConfig &config) const
{
    return QStringLiteral("Move the %1 sparse fields into %2: [{%3, %4}], indexed")
        .arg(config.fields.size())
        .arg(config.path, config.keyName, config.valueName);
}

// Its members a plain name can address (no '.', no '$' first, not _id) moved into "attrs" (or
// "attributes", "attrs_2", ... when a member holds that name).
std::optional<RewriteConfig> AttributesRemedy::suggest(const ShapeFlag &flag, const FieldProfile &,
                                                       const QString &, qint64) const
{
    RewriteConfig config;
    config.kind = kind();
    for (const std::string &member : flag.members) {
        const QString name = QString::fromStdString(member);
        if (plainNameProblem(QString(), name).isEmpty() && name != QLatin1String("_id"))
            config.fields << name;
    }
    if (config.fields.isEmpty())
        return std::nullopt;
    for (const QString &name : {QStringLiteral("attrs"), QStringLiteral("attributes")})
        if (!config.fields.contains(name)) {
            config.path = name;
            break;
        }
    for (int n = 2; config.path.isEmpty(); ++n)
        if (const QString name = QStringLiteral("attrs_%1").arg(n); !config.fields.contains(name))
            config.path = name;
    return config;
}

void AttributesRemedy::fillDefaults(RewriteConfig *config) const
{
    if (config->path.isEmpty())
        config->path = QStringLiteral("attrs");
}

QString AttributesRemedy::problem(const RewriteConfig &config) const
{
    if (QString p = config.attributeArrayProblem(); !p.isEmpty())
        return p;
    if (config.fields.isEmpty())
        return QStringLiteral("the attribute rewrite needs the fields it moves (--fields)");
    QStringList seen;
    for (const QString &field : config.fields) {
        if (QString p = plainNameProblem(QStringLiteral("field"), field); !p.isEmpty())
            return p;
        if (field == QLatin1String("_id") || field == config.path)
            return QStringLiteral("field '%1': _id and the array '%2' cannot be moved into it")
                .arg(field, config.path);
        if (seen.contains(field))
            return QStringLiteral("field '%1' is named twice").arg(field);
        seen << field;
    }
    return {};
}

QString AttributesRemedy::describe(const RewriteConfig &config) const
{
    return QStringLiteral("%1 sparse fields to %2: [{%3, %4}]")
        .arg(config.fields.size())
        .arg(config.path, config.keyName, config.valueName);
}

QString AttributesRemedy::subject(const RewriteConfig &config) const
{
    return QStringLiteral("any of the %1 fields").arg(config.fields.size());
}

QString AttributesRemedy::consequence(const RewriteConfig &config) const
{
    return QStringLiteral("index to create once the fields are moved: %1 (one index serves every "
                          "attribute)")
        .arg(indexSuggestion(config));
}

QString AttributesRemedy::windowNote(const RewriteConfig &config) const
{
    return QStringLiteral("Apply creates the index %1 (one index serves every attribute); Roll "
                          "back drops it.")
        .arg(indexSuggestion(config));
}

QString AttributesRemedy::indexSuggestion(const RewriteConfig &config) const
{
    // QJsonObject would sort the keys: k first, v second, each name quoted as JSON quotes it.
    const auto quoted = [](const QString &name) {
        return QString::fromUtf8(QJsonDocument(QJsonArray{name}).toJson(QJsonDocument::Compact))
            .mid(1)
            .chopped(1);
    };
    const QStringList keys = config.indexKeys();
    return QStringLiteral("{%1: 1, %2: 1}").arg(quoted(keys.at(0)), quoted(keys.at(1)));
}

RewriteResult AttributesRemedy::rewrite(const RewriteConfig &config, const QByteArray &raw) const
{
    return AttributeDocument::rewrite(config, raw); // the value is the whole document
}

QByteArray AttributesRemedy::scanFilter(const RewriteConfig &config) const
{
    // A document holding any of the fields.
    BsonDocument filter;
    bson_t any, one, exists;
    bson_append_array_begin(filter.get(), "$or", -1, &any);
    for (int i = 0; i < config.fields.size(); ++i) {
        const QByteArray name = config.fields[i].toUtf8();
        bson_append_document_begin(&any, std::to_string(i).c_str(), -1, &one);
        bson_append_document_begin(&one, name.constData(), int(name.size()), &exists);
        bson_append_bool(&exists, "$exists", -1, true);
        bson_append_document_end(&one, &exists);
        bson_append_document_end(&any, &one);
    }
    bson_append_array_end(filter.get(), &any);
    return filter.bytes();
}

} // namespace oe
