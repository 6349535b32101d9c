#pragma once

#include "charts/HistogramChart.h"

#include <QWidget>

class QCheckBox;
class QHBoxLayout;
class QLabel;

namespace oe {

// A chart with its tools: reset zoom, CDF toggle and export (PNG, PDF, SVG).
class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPanel(HistogramChart::Unit unit, QWidget *parent = nullptr);
    HistogramChart *chart() const { return m_chart; }
    QCheckBox *cdfToggle() const { return m_cdf; }
    // The usage hint under the chart (charts without a threshold line say less).
    void setHint(const QString &text);
    // The file name the export offers, without extension: what the chart shows.
    void setExportName(const QString &baseName);
    // A name typed without extension takes the chosen filter's ("PDF document (*.pdf)").
    static QString withExtension(const QString &path, const QString &filter);
    // Asks for a file name and writes the chart there.
    void exportChart();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitHint();

    QHBoxLayout *m_tools = nullptr;
    HistogramChart *m_chart;
    QCheckBox *m_cdf;
    QLabel *m_hint;
    QString m_exportName = QStringLiteral("chart");
};

} // namespace oe
