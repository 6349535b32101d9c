#pragma once

#include "explore/AnalysisResult.h"
#include "export/ReportChart.h"
#include "export/ReportOptions.h"

#include <QString>

#include <vector>

namespace oe {

// The shareable report: one self-contained file (HTML with the charts inline as SVG, or a PDF
// through Qt's printing support with the charts as vectors) holding the summary figures
// (summary.csv's rows, the same text), the charts, the top outliers, the thresholds and split
// recommendations, the chosen layout and, after a migration, its log and verification. The
// source is shown as the analysis recorded it (URIs redacted). Any thread.
class ReportDocument
{
public:
    ReportDocument(const AnalysisResult &result, std::vector<ReportChart> charts,
                   ReportOptions options);

    QString html() const;
    // By the file's suffix (.html/.htm or .pdf), written whole or not at all; false with a
    // one-line reason.
    bool write(const QString &path, QString *error) const;

private:
    enum class Medium
    {
        Html,
        Pdf
    };
    QString row(const QStringList &cells, bool header = false) const;
    QString header() const;
    QString summaryTable() const;
    QString outlierTable() const;
    QString shapeSection() const;
    QString versionsParagraph() const;
    QString anatomySection() const;
    QString thresholdSection() const;
    QString forecastSection() const;
    QString migrationSection() const;
    bool writeHtml(const QString &path, QString *error) const;
    bool writePdf(const QString &path, QString *error) const;

    const AnalysisResult &m_result;
    std::vector<ReportChart> m_charts;
    ReportOptions m_options;
    Medium m_medium = Medium::Html;
};

} // namespace oe
