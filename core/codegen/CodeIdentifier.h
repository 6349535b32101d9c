#pragma once

#include "codegen/CodeLanguage.h"

#include <QString>

namespace oe {

// Identifiers derived from names (function and class names, Go package names, file names):
// only [A-Za-z0-9_], a letter first, at most kMaxLength characters, never empty, and (with a
// language) never one of its keywords. A name that loses everything (no ASCII letter or digit)
// or is cut to length gets a short stable hash of the whole name, so different names still
// give different identifiers.
class CodeIdentifier
{
public:
    enum class Style
    {
        UpperCamel, // "customers_purchased" → "CustomersPurchased"
        Snake,      // "customersPurchased" → "customers_purchased"
        Lower,      // "customers_purchased" → "customerspurchased" (Go package names)
    };
    static constexpr qsizetype kMaxLength = 64;

    static QString derive(const QString &name, Style style);
    // Also not a keyword (or otherwise reserved word) of `language`: a trailing '_' if it is.
    static QString derive(const QString &name, Style style, CodeLanguage language);
    static bool isReserved(const QString &word, CodeLanguage language);
};

} // namespace oe
