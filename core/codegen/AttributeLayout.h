#pragma once

#include <QString>

namespace oe {

// The names the attribute rewrite (the attribute pattern) leaves: what its generated read path,
// lookup and writes need. RewriteConfig::attributeLayout() makes one.
struct AttributeLayout
{
    QString collection;
    QString array; // the top-level array of {key: name, value: value}
    QString key;
    QString value;
};

} // namespace oe
