#pragma once

#include <cmath>
#include <cstdint>

namespace oe {

// Small, fast, fully specified PRNG: the same seed gives the same stream on every platform
// (unlike std:: distributions), which keeps samples and demo datasets reproducible.
class SplitMix64
{
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}

    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, bound), bias-free (Lemire's method with rejection).
    std::uint64_t below(std::uint64_t bound)
    {
        if (bound == 0)
            return 0;
        const std::uint64_t threshold = (0 - bound) % bound;
        for (;;) {
            const std::uint64_t r = next();
            if (r >= threshold)
                return r % bound;
        }
    }
    std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
    double normal()
    {
        const double u1 = 1.0 - uniform();
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

private:
    std::uint64_t m_state;
};

} // namespace oe
