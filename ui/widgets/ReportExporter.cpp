#include "widgets/ReportExporter.h"

#include "history/SourceForecast.h"

#include "charts/Format.h"

#include "export/ReportCharts.h"
#include "export/ReportDocument.h"
#include "jobs/LatestJob.h"
#include "report/ReportWriter.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QWidget>

namespace oe {

ReportExporter::ReportExporter(QWidget *parent)
    : QObject(parent), m_parent(parent), m_job(new LatestJob(this)), m_csvJob(new LatestJob(this))
{
}

ReportOptions::PageSize ReportExporter::localPageSize()
{
    const QLocale::Territory t = QLocale().territory();
    return t == QLocale::UnitedStates || t == QLocale::Canada ? ReportOptions::PageSize::Letter
                                                              : ReportOptions::PageSize::A4;
}

QString ReportExporter::suggestedName(const AnalysisResult &result)
{
    const QString base = Format::fileNamePart(result.request.source.collectionName());
    return QStringLiteral("%1-outlier-report.html")
        .arg(base.isEmpty() ? QStringLiteral("collection") : base);
}

void ReportExporter::exportReport(const AnalysisResult &result, ReportOptions options,
                                  const QString &chosen)
{
    QString file = chosen;
    if (file.isEmpty()) {
        QString filter = tr("HTML report (*.html)");
        file =
            QFileDialog::getSaveFileName(m_parent, tr("Export report"), suggestedName(result),
                                         tr("HTML report (*.html);;PDF report (*.pdf)"), &filter);
        if (file.isEmpty())
            return;
        if (QFileInfo(file).suffix().isEmpty()) // no extension: the chosen filter's
            file += filter.contains(QLatin1String("pdf")) ? QStringLiteral(".pdf")
                                                          : QStringLiteral(".html");
    }
    if (!ReportOptions::isSupportedFile(file)) {
        emit finished(
            false,
            tr("unsupported report format '.%1': use .html or .pdf").arg(QFileInfo(file).suffix()));
        return;
    }
    std::vector<ReportChart> charts = ReportCharts::render(
        result, options.layout ? std::optional<std::uint64_t>(options.layout->keep) : std::nullopt,
        options.layout ? options.layout->field : QString());
    m_job->start(
        [result, charts = std::move(charts), options, file]() mutable {
            QString error;
            options.forecast =
                SourceForecast::linesFor(result.request.source, double(result.outliers.size.value));
            ReportDocument(result, charts, options).write(file, &error);
            return error;
        },
        [this, file](const QString &error) {
            emit finished(error.isEmpty(),
                          error.isEmpty() ? QDir::toNativeSeparators(file) : error);
        });
}

void ReportExporter::exportCsv(const AnalysisResult &result, const QString &directory)
{
    m_csvJob->start(
        [result, directory] {
            QString error;
            if (!ReportWriter::write(directory, ReportWriter::Report::of(result), &error))
                return error.isEmpty() ? QStringLiteral("unknown error") : error;
            return QString();
        },
        [this, directory](const QString &error) {
            emit csvFinished(error.isEmpty(),
                             error.isEmpty() ? QDir::toNativeSeparators(directory) : error);
        });
}

} // namespace oe
