#include "export/ReportCharts.h"

#include "charts/Format.h"
#include "charts/HistogramChart.h"
#include "export/SafeSvg.h"

#include <QBuffer>
#include <QSvgGenerator>

namespace oe {

namespace {

constexpr QSize kChartSize(760, 300);

ReportChart capture(HistogramChart &chart, const QString &title, const QString &caption)
{
    chart.resize(kChartSize);
    chart.resetView();
    ReportChart out;
    out.title = title;
    out.caption = caption;
    out.size = kChartSize;
    QByteArray raw;
    QBuffer svg(&raw);
    svg.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&svg);
    generator.setSize(kChartSize);
    generator.setViewBox(QRect(QPoint(0, 0), kChartSize));
    // A placeholder: the real title (a field name, from the server or a file) is set by
    // SafeSvg, escaped; the generator writes its title as it is.
    generator.setTitle(QStringLiteral("chart"));
    QCPPainter svgPainter(&generator);
    chart.toPainter(&svgPainter, kChartSize.width(), kChartSize.height());
    svgPainter.end();
    out.svg = SafeSvg::inlineElement(raw, title);
    QCPPainter picturePainter(&out.picture);
    chart.toPainter(&picturePainter, kChartSize.width(), kChartSize.height());
    picturePainter.end();
    return out;
}

} // namespace

std::vector<ReportChart> ReportCharts::render(const AnalysisResult &result,
                                              std::optional<std::uint64_t> chosenKeep,
                                              const QString &chosenPath)
{
    std::vector<ReportChart> charts;
    {
        HistogramChart sizes(HistogramChart::Unit::Bytes);
        sizes.setBins(result.profile.sizes.histogram().bins());
        if (result.outliers.size.value > 0)
            sizes.setThreshold(double(result.outliers.size.value));
        charts.push_back(capture(
            sizes, QCoreApplication::translate("ReportCharts", "Document sizes"),
            QCoreApplication::translate("ReportCharts",
                                        "BSON size of every analysed document; orange: above the "
                                        "size threshold (%1).")
                .arg(Format::bytes(result.outliers.size.value))));
    }
    for (const SplitRecommendation &rec : result.recommendations) {
        const FieldProfile *field = result.profile.field(rec.path);
        if (!rec.splittable || !field)
            continue;
        const QString path = QString::fromStdString(rec.path);
        const std::uint64_t keep = chosenKeep && path == chosenPath ? *chosenKeep : rec.keep;
        HistogramChart lengths(HistogramChart::Unit::Elements);
        lengths.setBins(field->lengths.histogram().bins());
        lengths.setThreshold(double(keep));
        charts.push_back(capture(
            lengths, QCoreApplication::translate("ReportCharts", "Array lengths: %1").arg(path),
            QCoreApplication::translate("ReportCharts",
                                        "Elements per document at %1; the line: keep %2 (%3).")
                .arg(path, Format::count(keep),
                     chosenKeep && path == chosenPath
                         ? QCoreApplication::translate("ReportCharts", "chosen")
                         : QCoreApplication::translate("ReportCharts", "recommended"))));
    }
    return charts;
}

} // namespace oe
