#pragma once

#include "stats/LogHistogram.h"

#include <qcustomplot.h>

#include <optional>
#include <vector>

namespace oe {

// A histogram on a logarithmic value axis (document sizes, array lengths), drawn with
// QCustomPlot: bins above the threshold in a distinct colour, a threshold line the user drags,
// hover tooltips (bin range, count, share), wheel zoom and drag pan with a reset, an optional
// CDF on the right axis, an optional second series (the distribution after a split), and
// export to PNG, PDF and SVG.
class HistogramChart : public QCustomPlot
{
    Q_OBJECT
public:
    enum class Unit
    {
        Bytes,
        Elements
    };
    explicit HistogramChart(Unit unit, QWidget *parent = nullptr);

    void setBins(const std::vector<LogHistogram::Bin> &bins);
    // A second distribution drawn as an outline (e.g. predicted sizes after the split).
    void setComparison(const std::vector<LogHistogram::Bin> &bins, const QString &label,
                       const QString &mainLabel);
    void clearComparison();
    // Values strictly above the threshold are outliers; nothing = no line, no highlight.
    void setThreshold(std::optional<double> value);
    std::optional<double> threshold() const { return m_threshold; }
    void setThresholdDraggable(bool draggable) { m_draggable = draggable; }
    void setShowCdf(bool show);
    bool showsCdf() const { return m_showCdf; }
    void resetView();
    // Writes PNG, PDF or SVG by the file's suffix; false with a one-line reason otherwise.
    bool exportTo(const QString &path, QString *error);
    // What the tooltip says over the bin at this widget position (empty if none).
    QString binTextAt(const QPoint &position) const;
    // Where the threshold line is drawn, in widget pixels (for tests and hit testing).
    double thresholdPixel() const;
    // Where the threshold's label is drawn (pixels; empty without a threshold): never under the
    // legend, and on the line's left when there is no room on its right.
    QRectF thresholdLabelRect() const;
    // What the empty chart says (default: run an analysis).
    void setEmptyText(const QString &text);
    QString emptyText() const;
    int outlierBinCount() const { return m_outlierBins; }
    // Where the orange (outlier) steps begin on the x axis; nullopt when none is drawn.
    std::optional<double> firstOutlierKey() const;
    QString formatValue(double value) const;

signals:
    // While the user drags the line, and once more when released.
    void thresholdDragged(double value);
    void thresholdDropped(double value);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void rebuild();
    void placeLineLabel();
    void applyPalette();
    double snapped(double value) const;
    int binAt(double key) const;

    Unit m_unit;
    std::vector<LogHistogram::Bin> m_bins;
    std::uint64_t m_total = 0;
    std::vector<LogHistogram::Bin> m_comparison;
    std::optional<double> m_threshold;
    bool m_draggable = true;
    bool m_dragging = false;
    bool m_showCdf = false;
    int m_outlierBins = 0;
    QCPGraph *m_normal = nullptr;
    QCPGraph *m_outliers = nullptr;
    QCPGraph *m_after = nullptr;
    QCPGraph *m_cdf = nullptr;
    QCPItemStraightLine *m_line = nullptr;
    QCPItemText *m_lineLabel = nullptr;
    QCPItemText *m_empty = nullptr;
};

} // namespace oe
