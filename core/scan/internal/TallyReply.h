#pragma once

// Internal to core/scan: reading the server's rows of a scan counted in the cluster
// (ServerTally, ShapeTally).

#include "bson/DocumentId.h"
#include "bson/internal/BsonIter.h"

#include <bson/bson.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace oe::tallyreply {

// The _id at `id` in DocumentId's raw form.
inline std::string rawIdAt(const bson_iter_t *id)
{
    return DocumentId::raw(int(bson_iter_type(id)),
                           bsoniter::container(id) + bsoniter::valueOffset(id),
                           bsoniter::valueLength(id));
}

// A count at `key` (int, long or double, not negative).
inline bool numberAt(const bson_t *doc, const char *key, std::uint64_t *out)
{
    bson_iter_t it;
    if (!bson_iter_init_find(&it, doc, key))
        return false;
    if (BSON_ITER_HOLDS_INT32(&it) || BSON_ITER_HOLDS_INT64(&it) || BSON_ITER_HOLDS_DOUBLE(&it)) {
        const std::int64_t v = bson_iter_as_int64(&it);
        *out = v < 0 ? 0 : std::uint64_t(v);
        return v >= 0;
    }
    return false;
}

// A record id at `key` (a long: a clustered collection's are not).
inline bool recordIdAt(const bson_t *doc, const char *key, std::int64_t *out)
{
    bson_iter_t it;
    if (!bson_iter_init_find(&it, doc, key) || !BSON_ITER_HOLDS_INT64(&it))
        return false;
    *out = bson_iter_int64(&it);
    return true;
}

// A row's first documents (its f: [{r, i}]), as (record id, raw _id); those without a record
// id left out.
inline std::vector<std::pair<std::int64_t, std::string>> firstDocuments(const bson_t *row)
{
    std::vector<std::pair<std::int64_t, std::string>> out;
    bson_iter_t it, firsts, first, id;
    if (!bson_iter_init_find(&it, row, "f") || !BSON_ITER_HOLDS_ARRAY(&it) ||
        !bson_iter_recurse(&it, &firsts))
        return out;
    while (bson_iter_next(&firsts)) {
        if (!BSON_ITER_HOLDS_DOCUMENT(&firsts) || !bson_iter_recurse(&firsts, &first) ||
            !bson_iter_find(&first, "r") || !BSON_ITER_HOLDS_INT64(&first))
            continue;
        const std::int64_t r = bson_iter_int64(&first);
        bson_iter_recurse(&firsts, &id);
        out.emplace_back(r, bson_iter_find(&id, "i") ? rawIdAt(&id) : std::string());
    }
    return out;
}

} // namespace oe::tallyreply
