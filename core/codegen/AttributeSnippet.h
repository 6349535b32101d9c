#pragma once

#include "codegen/AttributeLayout.h"
#include "codegen/CodeLanguage.h"

#include <QHash>
#include <QString>

namespace oe {

// The application's side of the attribute rewrite (`rewrite --attributes`, the attribute
// pattern), for its names: a document read with its attributes as fields again, the lookup the
// index serves, and an attribute set or taken out, in one language with its official driver.
// Names enter the code only as string literals (CodeLiteral) and identifiers derived from them
// (CodeIdentifier).
class AttributeSnippet
{
public:
    // Empty for a language without a template (AttributeTemplates::available).
    static QString generate(CodeLanguage language, const AttributeLayout &layout);
    // "products_attrs.py".
    static QString fileName(CodeLanguage language, const AttributeLayout &layout);
    static QHash<QString, QString> names(const AttributeLayout &layout, CodeLanguage language);
};

} // namespace oe
