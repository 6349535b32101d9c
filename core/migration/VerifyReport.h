#pragma once

#include <QStringList>

#include <cstdint>

namespace oe {

// The outcome of verifying (or rolling back) a migration: every journaled document checked.
struct VerifyReport
{
    std::uint64_t checked = 0;
    std::uint64_t matching = 0;
    std::uint64_t mismatches = 0;
    QStringList details;        // one line per mismatch: _id and what differs (the first 1,000)
    std::uint64_t appended = 0; // elements written after the split (beyond the journaled length)

    void mismatch(const QString &line)
    {
        ++mismatches;
        if (details.size() < 1000)
            details << line;
    }
    bool ok() const { return mismatches == 0; }
};

} // namespace oe
