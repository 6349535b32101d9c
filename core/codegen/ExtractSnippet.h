#pragma once

#include "codegen/CodeLanguage.h"
#include "codegen/ExtractLayout.h"

#include <QHash>
#include <QString>
#include <QStringList>

namespace oe {

// The application's side of an extraction (the subset pattern, `rewrite --extract`), for its
// names: the read path (the document whole again: the value from the side collection back in
// its place where the document holds the flag, the flag gone) and the write path (the value
// whole into the side collection first, then its excerpt of the same type and the flag into
// the document), in one language with its official driver. Names enter the code only as
// string literals (CodeLiteral) and identifiers derived from them (CodeIdentifier).
class ExtractSnippet
{
public:
    static QString generate(CodeLanguage language, const ExtractLayout &layout);
    // "posts_post_body_full.py", "PostBodyExtracted.java".
    static QString fileName(CodeLanguage language, const ExtractLayout &layout);
    // The tokens a template fills.
    static QHash<QString, QString> names(const ExtractLayout &layout, CodeLanguage language);
};

} // namespace oe
