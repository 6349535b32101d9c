#pragma once

#include "bson/BsonTypes.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace oe {

// How many values of each BSON type, indexed as BsonTypes' bits (the type code for 0x01..0x13;
// 20 maxKey, 21 minKey): int, long, double and decimal apart, null apart from missing.
struct TypeCounts
{
    static constexpr int kSlots = 22;
    std::array<std::uint64_t, kSlots> n{};

    static constexpr int slotOf(int bsonType)
    {
        if (bsonType >= 0x01 && bsonType <= 0x13)
            return bsonType;
        if (bsonType == 0x7F)
            return 20;
        if (bsonType == 0xFF)
            return 21;
        return 0;
    }
    std::uint64_t total() const
    {
        std::uint64_t t = 0;
        for (std::uint64_t c : n)
            t += c;
        return t;
    }
    int kinds() const
    {
        int k = 0;
        for (std::uint64_t c : n)
            k += c > 0;
        return k;
    }
    // The slot with the most values (the lowest slot on a tie); -1 when empty.
    int majority() const
    {
        int best = -1;
        for (int i = 0; i < kSlots; ++i)
            if (n[std::size_t(i)] > 0 && (best < 0 || n[std::size_t(i)] > n[std::size_t(best)]))
                best = i;
        return best;
    }
    // The slots that have values, the most first (the lower slot first on a tie).
    std::vector<int> byCount() const
    {
        std::vector<int> present;
        for (int i = 0; i < kSlots; ++i)
            if (n[std::size_t(i)] > 0)
                present.push_back(i);
        std::stable_sort(present.begin(), present.end(),
                         [&](int a, int b) { return n[std::size_t(a)] > n[std::size_t(b)]; });
        return present;
    }
    void merge(const TypeCounts &other)
    {
        for (int i = 0; i < kSlots; ++i)
            n[std::size_t(i)] += other.n[std::size_t(i)];
    }
    bool operator==(const TypeCounts &) const = default;
};

} // namespace oe
