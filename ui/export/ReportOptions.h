#pragma once

#include "report/AnatomyReport.h"
#include "split/SplitConfig.h"

#include <QFileInfo>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace oe {

// What the shareable report shows besides the analysis: the layout chosen for the split and,
// after a migration, its log and the verification's verdict.
struct ReportOptions
{
    enum class PageSize
    {
        A4,
        Letter
    };
    PageSize pageSize = PageSize::A4;
    int topK = 20; // rows of the outlier table
    std::optional<SplitConfig> layout;
    QString migrationLog;
    QString verification;
    // The growth forecast from the analysis history (SourceForecast::linesFor), one line each;
    // no section when empty.
    QStringList forecast;
    // The size anatomy of the largest outlier documents (AnatomyReport::read); no section when
    // empty.
    std::vector<AnatomyReport::Entry> anatomy;

    // A report is written as .html (or .htm) or .pdf.
    static bool isSupportedFile(const QString &path)
    {
        const QString suffix = QFileInfo(path).suffix().toLower();
        return suffix == QLatin1String("html") || suffix == QLatin1String("htm") ||
               suffix == QLatin1String("pdf");
    }
};

} // namespace oe
