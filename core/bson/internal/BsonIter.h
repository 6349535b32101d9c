#pragma once

// Internal to core: the one place that reads bson_iter_t's fields. libbson documents no
// accessor for where an element lies in its document (needed for byte offsets in error
// messages, raw value copies and sizes without re-encoding); its inline accessors are read
// here, named, and nowhere else.

#include <bson/bson.h>

#include <cstdint>
#include <string_view>

namespace oe::bsoniter {

// The document (or array) the iterator walks; offsets below are relative to it.
inline const std::uint8_t *container(const bson_iter_t *it)
{
    return it->raw;
}
inline std::string_view key(const bson_iter_t *it)
{
    return {bson_iter_key_unsafe(it), std::size_t(it->d1 - it->key - 1)};
}
// Where the current element's value starts, and how many bytes it has.
inline std::uint32_t valueOffset(const bson_iter_t *it)
{
    return it->key + std::uint32_t(key(it).size()) + 1;
}
inline std::uint32_t valueLength(const bson_iter_t *it)
{
    return it->next_off - valueOffset(it);
}
// The whole element: type byte, key, value.
inline std::uint32_t elementLength(const bson_iter_t *it)
{
    return it->next_off - it->off;
}
// Where the first data field of the value starts (an embedded document's length prefix).
inline std::uint32_t dataOffset(const bson_iter_t *it)
{
    return it->d1;
}
// Non-zero after bson_iter_next() stopped at a malformed element: its offset.
inline std::uint32_t errorOffset(const bson_iter_t *it)
{
    return it->err_off;
}
// A copy of `it` whose error offset is `offset` (for reporting a fault found by the caller).
inline bson_iter_t withErrorAt(const bson_iter_t *it, std::uint32_t offset)
{
    bson_iter_t at = *it;
    at.err_off = offset;
    return at;
}

} // namespace oe::bsoniter
