#include "codegen/CodeGenerator.h"

#include "codegen/AccessSnippet.h"
#include "codegen/CSnippet.h"
#include "codegen/CodeIdentifier.h"
#include "codegen/GoSnippet.h"
#include "codegen/JavaSnippet.h"
#include "codegen/JsSnippet.h"
#include "codegen/PythonSnippet.h"

namespace oe {

QString CodeGenerator::generate(CodeLanguage language, const SplitConfig &config)
{
    switch (language) {
    case CodeLanguage::JavaScript:
        return JsSnippet::generate(config);
    case CodeLanguage::Python:
        return PythonSnippet::generate(config);
    case CodeLanguage::C:
        return CSnippet::generate(config);
    case CodeLanguage::Java:
        return JavaSnippet::generate(config);
    case CodeLanguage::Go:
        return GoSnippet::generate(config);
    case CodeLanguage::Mongosh:
        return AccessSnippet::mongosh(config);
    }
    return {};
}

QStringList CodeGenerator::problems(const SplitConfig &config)
{
    QStringList out = config.withDefaults().problems();
    for (const auto &[option, value] :
         {std::pair{"--keep", config.keep}, std::pair{"--page-size", config.pageSize}})
        if (value > kMaxNumber)
            out << QStringLiteral("%1 must be at most %2 in generated code, got %3")
                       .arg(QLatin1String(option))
                       .arg(kMaxNumber)
                       .arg(value);
    return out;
}

QString CodeGenerator::fileName(CodeLanguage language, const SplitConfig &config)
{
    using Style = CodeIdentifier::Style;
    if (language == CodeLanguage::Java)
        return CodeIdentifier::derive(config.field, Style::UpperCamel) +
               QStringLiteral("Access.java");
    return CodeIdentifier::derive(config.collection, Style::Snake) + QLatin1Char('_') +
           CodeIdentifier::derive(config.field, Style::Snake) + QLatin1Char('.') +
           codelanguage::extension(language);
}

} // namespace oe
