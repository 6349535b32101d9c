#pragma once

#include <QString>

#include <cstdint>

namespace oe {

// What the Documents tab asks of a collection, as a user types it: a filter, a projection and
// a sort in extended JSON (empty: none), and a page (skip, limit).
struct DocumentQuery
{
    QString filter;
    QString projection;
    QString sort;
    std::int64_t skip = 0;
    std::int64_t limit = 20;
    QString flagField = QStringLiteral("has_extras"); // BrowsedDocument::flagged reads it

    static constexpr std::int64_t kMaxLimit = 1000;

    // Empty when the query can be sent; else one line naming the part and the problem
    // ("sort: …"), from libbson's own extended JSON parser.
    QString problem() const;
    // The same for one part: "filter", "projection" or "sort".
    static QString problemOf(const QString &part, const QString &json);
};

} // namespace oe
