#pragma once

#include "analysis/Analyzer.h"

#include <QMetaType>
#include <QString>

#include <optional>

namespace oe {

// A progress report from a running analysis, as the session reported it (core's value, held,
// not copied field by field; it crosses threads by copy), and how the window words it.
struct AnalysisProgress
{
    Analyzer::Progress scan;

    double documentsPerSecond() const
    {
        return scan.seconds > 0 ? double(scan.documents) / scan.seconds : 0.0;
    }
    // 0..1, or nothing when the total is unknown.
    std::optional<double> fraction() const;
    std::optional<double> secondsLeft() const;
    // "12,345 of 100,000 documents · 41,000 docs/s · about 2 s left"
    QString text() const;
};

} // namespace oe

Q_DECLARE_METATYPE(oe::AnalysisProgress)
