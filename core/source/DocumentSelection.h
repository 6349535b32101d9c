#pragma once

#include <cstdint>

namespace oe {

// Which documents of a source a read takes: every one, a reproducible random sample of
// `count`, or the first `count`. One value for the analysis options, the request and the live
// query, on the lowest floor that reads documents.
struct DocumentSelection
{
    enum class Mode
    {
        Full,
        Sample,
        Limit
    };

    Mode mode = Mode::Full;
    std::uint64_t count = 0; // documents for Sample and Limit
    std::uint64_t seed = 42; // a sample is reproducible from its seed
};

} // namespace oe
