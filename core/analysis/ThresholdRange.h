#pragma once

#include <QString>

#include <cstdint>

namespace oe {

// The thresholds a user may set, a document size in bytes or an array's keep: from 0 to
// 2,147,483,647 (the largest the window's box holds; a document is at most 16 MiB and an array
// has fewer elements than that). One rule for the CLI and the window: both refuse a larger one,
// with the same words.
struct ThresholdRange
{
    static constexpr std::uint64_t kMaximum = 2147483647;

    static bool contains(std::uint64_t value) { return value <= kMaximum; }
    // The largest, grouped by thousands whatever the locale ("2,147,483,647").
    static QString maximumText();
    // Why `typed` is refused, in one line: "`typed` is above the largest threshold,
    // 2,147,483,647." (the CLI names its option in `typed`, the window the number typed).
    static QString aboveMaximum(const QString &typed);
};

} // namespace oe
