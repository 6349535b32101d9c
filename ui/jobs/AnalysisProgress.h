#pragma once

#include "stats/LogHistogram.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <optional>

namespace oe {

// A progress report from a running analysis (value type, crosses threads by copy).
struct AnalysisProgress
{
    std::uint64_t documents = 0;
    std::uint64_t bytes = 0;
    std::optional<std::uint64_t> totalDocuments;
    std::optional<std::uint64_t> totalBytes;
    double seconds = 0.0;
    LogHistogram sizesSoFar;

    double documentsPerSecond() const { return seconds > 0 ? double(documents) / seconds : 0.0; }
    // 0..1, or nothing when the total is unknown.
    std::optional<double> fraction() const;
    std::optional<double> secondsLeft() const;
    // "12,345 of 100,000 documents · 41,000 docs/s · about 2 s left"
    QString text() const;
};

} // namespace oe

Q_DECLARE_METATYPE(oe::AnalysisProgress)
