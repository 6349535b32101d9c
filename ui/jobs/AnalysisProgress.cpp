#include "jobs/AnalysisProgress.h"

#include "charts/Format.h"

#include <QCoreApplication>

#include <algorithm>

namespace oe {

std::optional<double> AnalysisProgress::fraction() const
{
    if (scan.totalBytes && *scan.totalBytes > 0)
        return std::clamp(double(scan.bytes) / double(*scan.totalBytes), 0.0, 1.0);
    if (scan.totalDocuments && *scan.totalDocuments > 0)
        return std::clamp(double(scan.documents) / double(*scan.totalDocuments), 0.0, 1.0);
    return std::nullopt;
}

std::optional<double> AnalysisProgress::secondsLeft() const
{
    const auto f = fraction();
    if (!f || *f <= 0.0 || scan.seconds < 0.5)
        return std::nullopt;
    return scan.seconds * (1.0 - *f) / *f;
}

QString AnalysisProgress::text() const
{
    auto tr = [](const char *s) { return QCoreApplication::translate("AnalysisProgress", s); };
    QString line = scan.totalDocuments ? tr("%1 of %2 documents")
                                             .arg(Format::count(scan.documents),
                                                  Format::count(*scan.totalDocuments))
                                       : tr("%1 documents").arg(Format::count(scan.documents));
    line += QStringLiteral(" · ") +
            tr("%1 docs/s").arg(Format::count(std::uint64_t(documentsPerSecond())));
    if (const auto left = secondsLeft())
        line += QStringLiteral(" · ") + tr("about %1 left").arg(Format::duration(*left));
    return line;
}

} // namespace oe
