#include "codegen/AttributeSnippet.h"

#include "codegen/AttributeTemplates.h"
#include "codegen/CodeIdentifier.h"
#include "codegen/CodeLiteral.h"
#include "codegen/CodeTemplate.h"

namespace oe {

QHash<QString, QString> AttributeSnippet::names(const RewriteConfig &config, CodeLanguage language)
{
    const auto literal = [language](const QString &name) {
        return CodeLiteral::quote(language, name);
    };
    const QString stem = config.collection + QLatin1Char('_') + config.path;
    return {
        {QStringLiteral("collection"), literal(config.collection)},
        {QStringLiteral("array"), literal(config.path)},
        {QStringLiteral("key"), literal(config.keyName)},
        {QStringLiteral("value"), literal(config.valueName)},
        {QStringLiteral("arrayKey"), literal(config.indexKeys().at(0))},
        {QStringLiteral("arrayValue"), literal(config.indexKeys().at(1))},
        {QStringLiteral("Name"), CodeIdentifier::derive(stem, CodeIdentifier::Style::UpperCamel)},
        {QStringLiteral("name_"), CodeIdentifier::derive(stem, CodeIdentifier::Style::Snake)},
    };
}

QString AttributeSnippet::generate(CodeLanguage language, const RewriteConfig &config)
{
    if (!AttributeTemplates::available(language))
        return {};
    return CodeTemplate::fill(QString::fromUtf8(AttributeTemplates::text(language)),
                              names(config, language));
}

QString AttributeSnippet::fileName(CodeLanguage language, const RewriteConfig &config)
{
    return CodeIdentifier::derive(config.collection + QLatin1Char('_') + config.path,
                                  CodeIdentifier::Style::Snake) +
           QLatin1Char('.') + codelanguage::extension(language);
}

} // namespace oe
