#pragma once

#include "codegen/CodeLanguage.h"
#include "split/SplitConfig.h"

#include <QHash>
#include <QString>

namespace oe {

// The names a generated snippet uses, from the split's layout, and the filling of a snippet's
// text: every {{token}} replaced, none left dangling. Names enter the code only as string
// literals of the language (CodeLiteral) and identifiers derived from them (CodeIdentifier).
class CodeTemplate
{
public:
    // For `language`: collection, field, overflow, link, page, items, flag, count, pages (the
    // layout's names as string literals, quotes included), fieldKeepLast ("field.<keep-1>"),
    // itemsPageLast ("items.<pageSize-1>"), indexName ("<link>_1_<page>_1"), path (the
    // field's parts as literals, comma-separated), keep, pageSize (decimal numbers), Name
    // ("customers_purchased" → "CustomersPurchased") and name_ ("customers_purchased").
    static QHash<QString, QString> names(const SplitConfig &config,
                                         CodeLanguage language = CodeLanguage::JavaScript);
    // `text` with each {{key}} replaced by its value; a token without a value is a bug in the
    // generator and aborts (tests generate every language for every preset).
    static QString fill(QString text, const QHash<QString, QString> &values);
};

} // namespace oe
