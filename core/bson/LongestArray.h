#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>

namespace oe {

// The longest array anywhere in one BSON document (nested documents and arrays included), by
// its dot path ("activities", "stats.history"; elements of an array count under the array's
// path, as the analysis counts them). Empty path when the document holds no array.
struct LongestArray
{
    QString path;
    std::uint64_t length = 0;

    static LongestArray of(const std::uint8_t *data, std::size_t length);
};

} // namespace oe
