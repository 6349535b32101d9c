#pragma once

#include "ProfileBuilder.h"

#include <cstdint>

namespace oe {

struct AnalysisOptions
{
    enum class Mode
    {
        Full,
        Sample,
        Limit
    };

    Mode mode = Mode::Full;
    std::uint64_t count = 0; // documents for Sample and Limit
    std::uint64_t seed = 42; // sample selection is reproducible
    int threads = 0;         // analysis workers; 0 = one per core
    std::size_t batchBytes = 512u << 10;
    double maxDocsPerSecond = 0; // read at most this many documents per second; 0 = no limit
    ProfileBuilder::Limits limits;
};

} // namespace oe
