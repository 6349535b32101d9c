#include "jobs/AnalysisProgress.h"

#include "charts/Format.h"

#include <QCoreApplication>

#include <algorithm>

namespace oe {

std::optional<double> AnalysisProgress::fraction() const
{
    if (totalBytes && *totalBytes > 0)
        return std::clamp(double(bytes) / double(*totalBytes), 0.0, 1.0);
    if (totalDocuments && *totalDocuments > 0)
        return std::clamp(double(documents) / double(*totalDocuments), 0.0, 1.0);
    return std::nullopt;
}

std::optional<double> AnalysisProgress::secondsLeft() const
{
    const auto f = fraction();
    if (!f || *f <= 0.0 || seconds < 0.5)
        return std::nullopt;
    return seconds * (1.0 - *f) / *f;
}

QString AnalysisProgress::text() const
{
    auto tr = [](const char *s) { return QCoreApplication::translate("AnalysisProgress", s); };
    QString line =
        totalDocuments
            ? tr("%1 of %2 documents").arg(Format::count(documents), Format::count(*totalDocuments))
            : tr("%1 documents").arg(Format::count(documents));
    line += QStringLiteral(" · ") +
            tr("%1 docs/s").arg(Format::count(std::uint64_t(documentsPerSecond())));
    if (const auto left = secondsLeft())
        line += QStringLiteral(" · ") + tr("about %1 left").arg(Format::duration(*left));
    return line;
}

} // namespace oe
