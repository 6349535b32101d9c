#include "codegen/ExtractSnippet.h"

#include "codegen/CodeIdentifier.h"
#include "codegen/CodeLiteral.h"
#include "codegen/CodeTemplate.h"
#include "codegen/ExtractTemplates.h"

namespace oe {

QHash<QString, QString> ExtractSnippet::names(const ExtractLayout &config, CodeLanguage language)
{
    const auto literal = [language](const QString &name) {
        return CodeLiteral::quote(language, name);
    };
    QStringList parts, keys;
    for (const QString &part : config.path.split(QLatin1Char('.')))
        parts << literal(part);
    for (const QString &key : config.excerptKeys)
        keys << literal(key);
    const QString name = CodeIdentifier::derive(config.path, CodeIdentifier::Style::Snake);
    QStringList cKeys = keys, cParts = parts; // C: NULL-terminated arrays
    cKeys << QStringLiteral("NULL");
    cParts << QStringLiteral("NULL");
    return {
        {QStringLiteral("collection"), literal(config.collection)},
        {QStringLiteral("path"), literal(config.path)},
        {QStringLiteral("side"), literal(config.side)},
        {QStringLiteral("leaf"), literal(config.leaf)},
        {QStringLiteral("flag"), literal(config.flag)},
        {QStringLiteral("pathParts"), parts.join(QStringLiteral(", "))},
        {QStringLiteral("excerptKeys"), keys.join(QStringLiteral(", "))},
        {QStringLiteral("pathPartsC"), cParts.join(QStringLiteral(", "))},
        {QStringLiteral("excerptKeysC"), cKeys.join(QStringLiteral(", "))},
        {QStringLiteral("excerptChars"), QString::number(config.excerptChars)},
        {QStringLiteral("Name"),
         CodeIdentifier::derive(config.path, CodeIdentifier::Style::UpperCamel)},
        {QStringLiteral("name_"), name},
        {QStringLiteral("NAME"), name.toUpper()},
        {QStringLiteral("package"),
         CodeIdentifier::derive(config.collection, CodeIdentifier::Style::Lower, CodeLanguage::Go)},
    };
}

QString ExtractSnippet::generate(CodeLanguage language, const ExtractLayout &config)
{
    return CodeTemplate::fill(QString::fromUtf8(ExtractTemplates::text(language)),
                              names(config, language));
}

QString ExtractSnippet::fileName(CodeLanguage language, const ExtractLayout &config)
{
    using Style = CodeIdentifier::Style;
    if (language == CodeLanguage::Java)
        return CodeIdentifier::derive(config.path, Style::UpperCamel) +
               QStringLiteral("Extracted.java");
    return CodeIdentifier::derive(config.side, Style::Snake) + QLatin1Char('.') +
           codelanguage::extension(language);
}

} // namespace oe
