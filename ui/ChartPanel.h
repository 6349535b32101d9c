#pragma once

#include "HistogramChart.h"

#include <QWidget>

class QCheckBox;

namespace oe {

// A chart with its tools: reset zoom, CDF toggle and export (PNG, PDF, SVG).
class ChartPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ChartPanel(HistogramChart::Unit unit, QWidget *parent = nullptr);
    HistogramChart *chart() const { return m_chart; }
    QCheckBox *cdfToggle() const { return m_cdf; }
    // Asks for a file name and writes the chart there.
    void exportChart();

private:
    HistogramChart *m_chart;
    QCheckBox *m_cdf;
};

} // namespace oe
