#include "CodeGenerator.h"

#include "AccessSnippet.h"
#include "CSnippet.h"
#include "CodeTemplate.h"
#include "GoSnippet.h"
#include "JavaSnippet.h"
#include "JsSnippet.h"
#include "PythonSnippet.h"

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

QString CodeGenerator::fileName(CodeLanguage language, const SplitConfig &config)
{
    if (language == CodeLanguage::Java)
        return CodeTemplate::upperCamel(config.field) + QStringLiteral("Access.java");
    return CodeTemplate::snakeCase(config.collection) + QLatin1Char('_') +
           CodeTemplate::snakeCase(config.field) + QLatin1Char('.') +
           codelanguage::extension(language);
}

} // namespace oe
