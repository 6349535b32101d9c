#pragma once

#include <QColor>
#include <QDateTime>
#include <QString>

#include <qcustomplot.h>

#include <optional>
#include <utility>
#include <vector>

namespace oe {

// Figures over time (the analysis history): one line with markers per series on a date axis,
// bytes or elements on a logarithmic value axis, an optional threshold as a dashed line, a
// legend; wheel zoom and drag pan.
class TrendsChart : public QCustomPlot
{
    Q_OBJECT
public:
    enum class Unit
    {
        Bytes,
        Elements
    };
    struct Series
    {
        QString name;
        QColor colour;
        std::vector<std::pair<QDateTime, double>> points;
    };

    explicit TrendsChart(Unit unit, QWidget *parent = nullptr);
    void setSeries(const std::vector<Series> &series);
    void setThreshold(std::optional<double> value, const QString &label);
    int seriesCount() const { return graphCount(); }
    // The value of series `index` at its point `point` (for tests: what the chart holds).
    double valueAt(int index, int point) const;

private:
    void rescale();

    Unit m_unit;
    QCPItemStraightLine *m_threshold;
    QCPItemText *m_thresholdLabel;
};

} // namespace oe
