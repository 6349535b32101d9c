#include "charts/TrendsChart.h"

#include "charts/Format.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace oe {

namespace {
// Log ticks labelled as sizes or counts.
class ValueTicker : public QCPAxisTickerLog
{
public:
    explicit ValueTicker(TrendsChart::Unit unit) : m_unit(unit) {}

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return m_unit == TrendsChart::Unit::Bytes ? Format::bytes(std::uint64_t(tick))
                                                  : Format::count(std::uint64_t(tick));
    }

private:
    TrendsChart::Unit m_unit;
};
} // namespace

TrendsChart::TrendsChart(Unit unit, QWidget *parent)
    : QCustomPlot(parent), m_unit(unit), m_threshold(new QCPItemStraightLine(this)),
      m_thresholdLabel(new QCPItemText(this))
{
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    auto dates = QSharedPointer<QCPAxisTickerDateTime>::create();
    dates->setDateTimeFormat(QStringLiteral("yyyy-MM-dd\nhh:mm"));
    dates->setDateTimeSpec(Qt::UTC);
    xAxis->setTicker(dates);
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setTicker(QSharedPointer<ValueTicker>::create(unit));
    yAxis->setLabel(unit == Unit::Bytes ? tr("bytes") : tr("elements"));
    // The legend in a row under the plot: the lines run across the whole width.
    legend->setVisible(true);
    legend->setFont(font());
    auto *below = new QCPLayoutGrid;
    plotLayout()->addElement(1, 0, below);
    below->setMargins(QMargins(5, 0, 5, 5));
    below->addElement(0, 0, legend);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    plotLayout()->setRowStretchFactor(1, 0.001);
    const QPalette pal = palette();
    setBackground(pal.base());
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setBasePen(QPen(pal.text().color()));
        axis->setTickPen(QPen(pal.text().color()));
        axis->setSubTickPen(QPen(pal.text().color()));
        axis->setTickLabelColor(pal.text().color());
        axis->setLabelColor(pal.text().color());
    }
    legend->setBrush(pal.base());
    legend->setTextColor(pal.text().color());
    m_threshold->setPen(QPen(QColor(0xd9, 0x48, 0x0f), 1.5, Qt::DashLine));
    m_threshold->setVisible(false);
    m_thresholdLabel->setVisible(false);
    m_thresholdLabel->setColor(QColor(0xd9, 0x48, 0x0f));
    m_thresholdLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
}

void TrendsChart::setSeries(const std::vector<Series> &series)
{
    clearGraphs();
    for (const Series &s : series) {
        QCPGraph *graph = addGraph();
        graph->setName(s.name);
        graph->setPen(QPen(s.colour, 2));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, s.colour, 6));
        QVector<double> keys, values;
        for (const auto &[at, value] : s.points) {
            keys << double(at.toMSecsSinceEpoch()) / 1000.0;
            values << std::max(1.0, value); // a log axis: 0 drawn at 1
        }
        graph->setData(keys, values, true);
    }
    rescale();
    replot();
}

void TrendsChart::setThreshold(std::optional<double> value, const QString &label)
{
    m_threshold->setVisible(value.has_value());
    m_thresholdLabel->setVisible(value.has_value());
    if (value) {
        m_threshold->point1->setCoords(0, *value);
        m_threshold->point2->setCoords(1, *value);
        m_thresholdLabel->setText(label);
        m_thresholdLabel->position->setType(QCPItemPosition::ptAxisRectRatio);
        m_thresholdLabel->position->setAxes(xAxis, yAxis);
        m_thresholdLabel->position->setTypeY(QCPItemPosition::ptPlotCoords);
        m_thresholdLabel->position->setCoords(0.99, *value);
    }
    rescale();
    replot();
}

double TrendsChart::valueAt(int index, int point) const
{
    if (index < 0 || index >= graphCount() || point < 0 || point >= graph(index)->dataCount())
        return std::numeric_limits<double>::quiet_NaN();
    return (graph(index)->data()->constBegin() + point)->value;
}

void TrendsChart::rescale()
{
    rescaleAxes();
    QCPRange x = xAxis->range();
    if (x.size() < 60) // one run, or runs a moment apart: an hour around them
        x = QCPRange(x.center() - 1800, x.center() + 1800);
    xAxis->setRange(x.lower - x.size() * 0.05, x.upper + x.size() * 0.05);
    QCPRange y = yAxis->range();
    if (m_threshold->visible())
        y.expand(m_threshold->point1->coords().y());
    yAxis->setRange(std::max(0.5, y.lower / 2), std::max(y.upper * 2, 10.0));
}

} // namespace oe
