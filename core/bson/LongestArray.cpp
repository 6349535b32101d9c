#include "bson/LongestArray.h"

#include <bson/bson.h>

namespace oe {

namespace {

void walk(bson_iter_t *it, const QString &prefix, bool inArray, LongestArray *best, int depth)
{
    if (depth > 100) // BSON nests at most 100 levels on a server; a file may lie
        return;
    while (bson_iter_next(it)) {
        // An array's elements are under the array's own path (no ".0", ".1").
        const QString path =
            inArray ? prefix
                    : (prefix.isEmpty()
                           ? QString::fromUtf8(bson_iter_key(it))
                           : prefix + QLatin1Char('.') + QString::fromUtf8(bson_iter_key(it)));
        bson_iter_t child;
        if (BSON_ITER_HOLDS_ARRAY(it) && bson_iter_recurse(it, &child)) {
            std::uint64_t n = 0;
            bson_iter_t count = child;
            while (bson_iter_next(&count))
                ++n;
            if (n > best->length) {
                best->length = n;
                best->path = path;
            }
            walk(&child, path, true, best, depth + 1);
        } else if (BSON_ITER_HOLDS_DOCUMENT(it) && bson_iter_recurse(it, &child)) {
            walk(&child, path, false, best, depth + 1);
        }
    }
}

} // namespace

LongestArray LongestArray::of(const std::uint8_t *data, std::size_t length)
{
    LongestArray best;
    bson_t doc;
    bson_iter_t it;
    if (bson_init_static(&doc, data, length) && bson_iter_init(&it, &doc))
        walk(&it, QString(), false, &best, 0);
    return best;
}

} // namespace oe
