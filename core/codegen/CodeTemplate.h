#pragma once

#include "SplitConfig.h"

#include <QHash>
#include <QString>

namespace oe {

// The names a generated snippet uses, from the split's layout, and the filling of a snippet's
// text: every {{token}} replaced, none left dangling.
class CodeTemplate
{
public:
    // collection, field, overflow, link, page, items, flag, count, pages (the layout's names),
    // keep, keepLast, pageSize, pageLast (numbers), Name ("customers_purchased" →
    // "CustomersPurchased") and name_ ("customers_purchased").
    static QHash<QString, QString> names(const SplitConfig &config);
    // `text` with each {{key}} replaced by its value; a token without a value is a bug in the
    // generator and aborts (tests generate every language for every preset).
    static QString snakeCase(const QString &name); // "customersPurchased" → "customers_purchased"
    static QString upperCamel(const QString &name); // "customers_purchased" → "CustomersPurchased"
    // A dotted field path as a list of quoted parts: "a.b" → "\"a\", \"b\"" (Go's Lookup,
    // Java's getEmbedded).
    static QString quotedParts(const QString &path);
    static QString fill(QString text, const QHash<QString, QString> &values);
};

} // namespace oe
