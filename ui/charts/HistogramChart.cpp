#include "charts/HistogramChart.h"

#include <QFontMetricsF>

#include "charts/Format.h"
#include "output/StagedOutput.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace oe {

namespace {

constexpr double kFloor = 0.5; // log axes cannot show 0: empty bins sit on this baseline
constexpr double kGrabPixels = 6.0;

double keyOf(std::uint64_t edge)
{
    return edge == 0 ? kFloor : double(edge);
}

QColor outlierColour()
{
    return QColor(0xd9, 0x48, 0x0f);
}

// Log ticks labelled in the unit's words ("64 KiB", "1,000") instead of "6.5536·10^4".
class UnitLogTicker : public QCPAxisTickerLog
{
public:
    explicit UnitLogTicker(HistogramChart::Unit unit) : m_unit(unit) {}

protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        // Counts and bytes are whole: a tick between two whole numbers (a short log range)
        // gets no label, or "1, 1, 1, 2, 2" would run along the axis.
        if (std::abs(tick - std::round(tick)) > 1e-6 * std::max(1.0, tick))
            return {};
        const auto v = std::uint64_t(std::llround(tick));
        return m_unit == HistogramChart::Unit::Bytes ? Format::bytes(v) : Format::count(v);
    }

private:
    HistogramChart::Unit m_unit;
};

} // namespace

HistogramChart::HistogramChart(Unit unit, QWidget *parent) : QCustomPlot(parent), m_unit(unit)
{
    setMinimumSize(280, 130);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    setMouseTracking(true);

    xAxis->setScaleType(QCPAxis::stLogarithmic);
    auto logTicker = QSharedPointer<UnitLogTicker>::create(unit);
    logTicker->setLogBase(unit == Unit::Bytes ? 2 : 10);
    logTicker->setSubTickCount(unit == Unit::Bytes ? 0 : 8);
    xAxis->setTicker(logTicker);
    xAxis->setNumberFormat(QStringLiteral("gb"));
    xAxis->setLabel(unit == Unit::Bytes ? tr("BSON document size (bytes, log scale)")
                                        : tr("array length (elements, log scale)"));
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setTicker(QSharedPointer<UnitLogTicker>::create(Unit::Elements));
    yAxis->setNumberFormat(QStringLiteral("gb"));
    yAxis->setLabel(unit == Unit::Bytes ? tr("documents (log scale)") : tr("arrays (log scale)"));
    yAxis2->setLabel(tr("cumulative share (%)"));
    yAxis2->setRange(0, 100);

    m_normal = addGraph();
    m_normal->setName(unit == Unit::Bytes ? tr("documents") : tr("arrays"));
    m_normal->setLineStyle(QCPGraph::lsStepLeft);
    m_outliers = addGraph();
    m_outliers->setName(tr("outliers (over the threshold)"));
    m_outliers->setLineStyle(QCPGraph::lsStepLeft);
    m_after = addGraph();
    m_after->setLineStyle(QCPGraph::lsStepLeft);
    m_after->setVisible(false);
    m_after->removeFromLegend();
    m_cdf = addGraph(xAxis, yAxis2);
    m_cdf->setName(tr("cumulative share"));
    m_cdf->setVisible(false);
    m_cdf->removeFromLegend();

    m_line = new QCPItemStraightLine(this);
    m_line->setVisible(false);
    m_line->setSelectable(false);
    m_lineLabel = new QCPItemText(this);
    m_lineLabel->setVisible(false);
    m_lineLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_lineLabel->position->setTypeY(QCPItemPosition::ptAbsolute);
    // After the layout, before drawing: the legend's place is the one it is drawn at.
    connect(this, &QCustomPlot::afterLayout, this, &HistogramChart::placeLineLabel);
    m_empty = new QCPItemText(this);
    m_empty->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_empty->position->setCoords(0.5, 0.5);
    m_empty->setText(tr("No data yet: run an analysis (F5)."));

    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    applyPalette();
    rebuild();
}

void HistogramChart::applyPalette()
{
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    const QColor base = pal.color(QPalette::Base);
    setBackground(base);
    for (QCPAxis *axis : {xAxis, yAxis, yAxis2}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        QColor grid = text;
        grid.setAlpha(40);
        axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
    }
    legend->setBrush(base);
    legend->setTextColor(text);
    legend->setBorderPen(QPen(text));
    QColor bars = pal.color(QPalette::Highlight);
    m_normal->setPen(QPen(bars.darker(120)));
    bars.setAlpha(150);
    m_normal->setBrush(bars);
    QColor hot = outlierColour();
    m_outliers->setPen(QPen(hot.darker(110)));
    hot.setAlpha(190);
    m_outliers->setBrush(hot);
    m_after->setPen(QPen(QColor(0x2b, 0x8a, 0x3e), 2));
    m_cdf->setPen(QPen(text, 1.5, Qt::SolidLine));
    m_line->setPen(QPen(text, 1.5, Qt::DashLine));
    m_lineLabel->setColor(text);
    // Its own background: readable over the bars in any palette (light text on light bars in
    // dark mode otherwise).
    QColor behind = base;
    behind.setAlpha(230);
    m_lineLabel->setBrush(QBrush(behind));
    m_lineLabel->setPadding(QMargins(3, 1, 3, 1));
    m_empty->setColor(text);
}

void HistogramChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        replot(rpQueuedReplot);
    }
    QCustomPlot::changeEvent(event);
}

void HistogramChart::setBins(const std::vector<LogHistogram::Bin> &bins)
{
    const bool first = m_bins.empty();
    m_bins = bins;
    m_total = 0;
    for (const auto &b : m_bins)
        m_total += b.count;
    rebuild();
    if (first)
        resetView();
}

void HistogramChart::setComparison(const std::vector<LogHistogram::Bin> &bins, const QString &label,
                                   const QString &mainLabel)
{
    m_comparison = bins;
    m_after->setName(label);
    m_normal->setName(mainLabel);
    m_after->addToLegend();
    rebuild();
    resetView();
}

void HistogramChart::clearComparison()
{
    m_comparison.clear();
    m_after->removeFromLegend();
    rebuild();
}

void HistogramChart::setThreshold(std::optional<double> value)
{
    m_threshold = value;
    rebuild();
}

void HistogramChart::setShowCdf(bool show)
{
    m_showCdf = show;
    yAxis2->setVisible(show);
    m_cdf->setVisible(show);
    if (show)
        m_cdf->addToLegend();
    else
        m_cdf->removeFromLegend();
    replot(rpQueuedReplot);
}

void HistogramChart::rebuild()
{
    QVector<double> keys, normal, hot, cdf;
    m_outlierBins = 0;
    std::uint64_t running = 0;
    for (const auto &b : m_bins) {
        const double count = b.count ? double(b.count) : kFloor;
        // A bin is highlighted when it holds values above the threshold: its largest value
        // (upper - 1) exceeds it. One that straddles the line is drawn as both, split at the
        // line: its part left of the line is not counted as outliers, its right part may be.
        const bool isHot = m_threshold && double(b.upper - 1) > *m_threshold && b.count > 0;
        const bool straddles = isHot && double(b.lower) < *m_threshold;
        keys << keyOf(b.lower);
        normal << (isHot && !straddles ? kFloor : count);
        hot << (isHot && !straddles ? count : kFloor);
        if (straddles) {
            keys << std::max(*m_threshold, kFloor);
            normal << kFloor;
            hot << count;
        }
        m_outlierBins += isHot ? 1 : 0;
        running += b.count;
        cdf << (m_total ? 100.0 * double(running) / double(m_total) : 0.0);
    }
    if (!m_bins.empty()) { // close the last step at the last bin's upper edge
        keys << keyOf(m_bins.back().upper);
        normal << normal.back();
        hot << hot.back();
        cdf << cdf.back();
    }
    m_normal->setData(keys, normal, true);
    m_outliers->setData(keys, hot, true);
    // The CDF reaches each bin's share at the bin's upper edge.
    QVector<double> cdfKeys;
    for (const auto &b : m_bins)
        cdfKeys << keyOf(b.upper);
    if (!cdf.isEmpty())
        cdf.removeLast();
    m_cdf->setData(cdfKeys, cdf, true);

    QVector<double> afterKeys, after;
    for (const auto &b : m_comparison) {
        afterKeys << keyOf(b.lower);
        after << (b.count ? double(b.count) : kFloor);
    }
    if (!m_comparison.empty()) {
        afterKeys << keyOf(m_comparison.back().upper);
        after << after.back();
    }
    m_after->setData(afterKeys, after, true);
    m_after->setVisible(!m_comparison.empty());

    if (m_threshold && !legend->hasItemWithPlottable(m_outliers))
        m_outliers->addToLegend();
    else if (!m_threshold)
        m_outliers->removeFromLegend();
    m_line->setVisible(m_threshold.has_value());
    m_lineLabel->setVisible(m_threshold.has_value());
    if (m_threshold) {
        const double x = std::max(*m_threshold, kFloor);
        m_line->point1->setCoords(x, 1);
        m_line->point2->setCoords(x, 2);
        m_lineLabel->setText(QStringLiteral(" ") +
                             tr("threshold %1").arg(formatValue(*m_threshold)));
    }
    m_empty->setVisible(m_bins.empty());
    replot(rpQueuedReplot);
}

void HistogramChart::placeLineLabel()
{
    if (!m_threshold)
        return;
    const double x = std::max(*m_threshold, kFloor);
    const double px = xAxis->coordToPixel(x);
    const QRect area = axisRect()->rect();
    const double width =
        QFontMetricsF(m_lineLabel->font()).horizontalAdvance(m_lineLabel->text()) + 8.0;
    const bool leftOfLine = px + width > area.right();
    m_lineLabel->setPositionAlignment((leftOfLine ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    const double left = leftOfLine ? px - width : px;
    double top = area.top() + 4.0;
    const QRect key = legend->visible() ? legend->outerRect() : QRect();
    if (key.isValid() && left < key.right() && left + width > key.left())
        top = key.bottom() + 4.0;
    m_lineLabel->position->setCoords(x, top);
}

std::optional<double> HistogramChart::firstOutlierKey() const
{
    for (auto it = m_outliers->data()->constBegin(); it != m_outliers->data()->constEnd(); ++it)
        if (it->value > kFloor)
            return it->key;
    return std::nullopt;
}

void HistogramChart::setEmptyText(const QString &text)
{
    m_empty->setText(text);
    replot(rpQueuedReplot);
}

QString HistogramChart::emptyText() const
{
    return m_empty->text();
}

QRectF HistogramChart::thresholdLabelRect() const
{
    if (!m_threshold || !m_lineLabel->visible())
        return {};
    return QRectF(m_lineLabel->topLeft->pixelPosition(), m_lineLabel->bottomRight->pixelPosition());
}

void HistogramChart::resetView()
{
    if (m_bins.empty() && m_comparison.empty()) {
        xAxis->setRange(1, m_unit == Unit::Bytes ? 16 << 20 : 10000);
        yAxis->setRange(kFloor, 10);
        replot(rpQueuedReplot);
        return;
    }
    double lo = 1e300, hi = 0, top = 1;
    auto extend = [&](const std::vector<LogHistogram::Bin> &bins) {
        if (bins.empty())
            return;
        lo = std::min(lo, keyOf(bins.front().lower));
        hi = std::max(hi, keyOf(bins.back().upper));
        for (const auto &b : bins)
            top = std::max(top, double(b.count));
    };
    extend(m_bins);
    extend(m_comparison);
    if (m_threshold) {
        lo = std::min(lo, std::max(*m_threshold, kFloor));
        hi = std::max(hi, *m_threshold * 1.05);
    }
    xAxis->setRange(lo / 1.2, hi * 1.2);
    yAxis->setRange(kFloor, top * 2.0);
    replot(rpQueuedReplot);
}

QString HistogramChart::formatValue(double value) const
{
    const auto v = std::uint64_t(std::max(0.0, value));
    return m_unit == Unit::Bytes ? Format::bytes(v) : tr("%1 elements").arg(Format::count(v));
}

int HistogramChart::binAt(double key) const
{
    for (std::size_t i = 0; i < m_bins.size(); ++i)
        if (key >= keyOf(m_bins[i].lower) && key < keyOf(m_bins[i].upper))
            return int(i);
    return -1;
}

QString HistogramChart::binTextAt(const QPoint &position) const
{
    if (!axisRect()->rect().contains(position))
        return {};
    const int i = binAt(xAxis->pixelToCoord(position.x()));
    if (i < 0)
        return {};
    const auto &b = m_bins[std::size_t(i)];
    const QString range =
        m_unit == Unit::Bytes
            ? tr("%1 to %2").arg(Format::bytes(b.lower), Format::bytes(b.upper - 1))
            : tr("%1 to %2 elements").arg(Format::count(b.lower), Format::count(b.upper - 1));
    const QString what = m_unit == Unit::Bytes ? tr("%1 documents") : tr("%1 arrays");
    return tr("%1: %2 (%3 of all)")
        .arg(range, what.arg(Format::count(b.count)),
             Format::percent(m_total ? double(b.count) / double(m_total) : 0.0, 2));
}

double HistogramChart::thresholdPixel() const
{
    return m_threshold ? xAxis->coordToPixel(std::max(*m_threshold, kFloor)) : -1.0;
}

double HistogramChart::snapped(double value) const
{
    return std::max(0.0, std::round(value));
}

void HistogramChart::mousePressEvent(QMouseEvent *event)
{
    if (m_draggable && m_threshold && event->button() == Qt::LeftButton &&
        std::abs(event->position().x() - thresholdPixel()) <= kGrabPixels) {
        m_dragging = true;
        setInteraction(QCP::iRangeDrag, false);
        setCursor(Qt::SizeHorCursor);
        event->accept();
        return;
    }
    QCustomPlot::mousePressEvent(event);
}

void HistogramChart::mouseMoveEvent(QMouseEvent *event)
{
    if (m_dragging) {
        const double value = snapped(xAxis->pixelToCoord(event->position().x()));
        setThreshold(value);
        emit thresholdDragged(value);
        event->accept();
        return;
    }
    if (m_draggable && m_threshold &&
        std::abs(event->position().x() - thresholdPixel()) <= kGrabPixels)
        setCursor(Qt::SizeHorCursor);
    else
        unsetCursor();
    const QString text = binTextAt(event->position().toPoint());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    QCustomPlot::mouseMoveEvent(event);
}

void HistogramChart::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragging) {
        m_dragging = false;
        setInteraction(QCP::iRangeDrag, true);
        unsetCursor();
        if (m_threshold)
            emit thresholdDropped(*m_threshold);
        event->accept();
        return;
    }
    QCustomPlot::mouseReleaseEvent(event);
}

bool HistogramChart::exportTo(const QString &path, QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("pdf") &&
        suffix != QLatin1String("svg")) {
        *error = tr("unsupported chart format '.%1': use .png, .pdf or .svg").arg(suffix);
        return false;
    }
    // Rendered in memory, then written whole through a staged file (a link at `path` is
    // replaced, never written through); the PDF goes through a private folder first, since
    // QCustomPlot writes it to a file name only.
    QByteArray bytes;
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        QBuffer buffer(&bytes);
        ok = buffer.open(QIODevice::WriteOnly) && toPixmap(0, 0, 2.0).save(&buffer, "PNG");
    } else if (suffix == QLatin1String("pdf")) {
        const QTemporaryDir scratch;
        const QString file = scratch.filePath(QStringLiteral("chart.pdf"));
        QFile rendered(file);
        ok = scratch.isValid() && savePdf(file) && rendered.open(QIODevice::ReadOnly);
        if (ok)
            bytes = rendered.readAll();
    } else {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size());
        svg.setViewBox(rect());
        svg.setTitle(xAxis->label().toHtmlEscaped());
        QCPPainter painter;
        ok = painter.begin(&svg);
        if (ok) {
            toPainter(&painter, width(), height());
            ok = painter.end();
        }
    }
    SourceError failure;
    if (!ok)
        failure.message = tr("the image could not be rendered");
    else if (StagedOutput::writeFile(path, bytes, &failure))
        return true;
    *error = tr("could not write %1: %2").arg(QDir::toNativeSeparators(path), failure.message);
    return false;
}

} // namespace oe
