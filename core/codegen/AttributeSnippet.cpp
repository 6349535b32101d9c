#include "codegen/AttributeSnippet.h"

#include "codegen/AttributeTemplates.h"
#include "codegen/CodeIdentifier.h"
#include "codegen/CodeLiteral.h"
#include "codegen/CodeTemplate.h"

namespace oe {

QHash<QString, QString> AttributeSnippet::names(const AttributeLayout &layout,
                                                CodeLanguage language)
{
    const auto literal = [language](const QString &name) {
        return CodeLiteral::quote(language, name);
    };
    const QString stem = layout.collection + QLatin1Char('_') + layout.array;
    return {
        {QStringLiteral("collection"), literal(layout.collection)},
        {QStringLiteral("array"), literal(layout.array)},
        {QStringLiteral("key"), literal(layout.key)},
        {QStringLiteral("value"), literal(layout.value)},
        {QStringLiteral("arrayKey"), literal(layout.array + QLatin1Char('.') + layout.key)},
        {QStringLiteral("arrayValue"), literal(layout.array + QLatin1Char('.') + layout.value)},
        {QStringLiteral("Name"), CodeIdentifier::derive(stem, CodeIdentifier::Style::UpperCamel)},
        {QStringLiteral("name_"), CodeIdentifier::derive(stem, CodeIdentifier::Style::Snake)},
    };
}

QString AttributeSnippet::generate(CodeLanguage language, const AttributeLayout &layout)
{
    if (!AttributeTemplates::available(language))
        return {};
    return CodeTemplate::fill(QString::fromUtf8(AttributeTemplates::text(language)),
                              names(layout, language));
}

QString AttributeSnippet::fileName(CodeLanguage language, const AttributeLayout &layout)
{
    return CodeIdentifier::derive(layout.collection + QLatin1Char('_') + layout.array,
                                  CodeIdentifier::Style::Snake) +
           QLatin1Char('.') + codelanguage::extension(language);
}

} // namespace oe
