#include "analysis/DocumentShape.h"

namespace oe {

void DocumentShape::absorb(DocumentShape &&other)
{
    if (other.fieldCounts.count() == 0)
        return;
    if (fieldCounts.count() == 0) {
        bigScalarBytes = other.bigScalarBytes;
        mostFields = std::move(other.mostFields);
        deepest = std::move(other.deepest);
    } else {
        mostFields.merge(std::move(other.mostFields));
        deepest.merge(std::move(other.deepest));
    }
    fieldCounts.merge(other.fieldCounts);
    depths.merge(other.depths);
}

} // namespace oe
