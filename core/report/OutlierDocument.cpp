#include "report/OutlierDocument.h"

#include <unordered_map>

namespace oe {

std::vector<OutlierDocument> OutlierDocument::group(const std::vector<OutlierRow> &rows)
{
    std::vector<OutlierDocument> documents;
    std::unordered_map<std::uint64_t, std::size_t> at; // docIndex → position
    for (const OutlierRow &row : rows) {
        const auto [it, added] = at.try_emplace(row.docIndex, documents.size());
        if (added) {
            OutlierDocument d;
            d.id = row.id;
            d.docIndex = row.docIndex;
            d.bsonSize = row.bsonSize;
            documents.push_back(d);
        }
        OutlierDocument &d = documents[it->second];
        if (!row.path.isEmpty() && row.arrayLength >= d.arrayLength) {
            d.path = row.path;
            d.arrayLength = row.arrayLength;
        }
        const QString reason =
            row.path.isEmpty() ? row.detail : QStringLiteral("%1: %2").arg(row.path, row.detail);
        if (!d.reasons.contains(reason))
            d.reasons << reason;
    }
    return documents;
}

} // namespace oe
