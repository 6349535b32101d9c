#include "charts/AnatomyChart.h"

#include "charts/Format.h"

#include <algorithm>
#include <cmath>

namespace oe {

namespace {

// Byte ticks in the unit's words at binary steps ("128 KiB, 256 KiB, 384 KiB"), about three
// along the axis, not "300000".
class ByteTicker : public QCPAxisTicker
{
protected:
    double getTickStep(const QCPRange &range) override
    {
        return std::exp2(std::floor(std::log2(std::max(1.0, range.size() / 3.0))));
    }
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return tick < 0 ? QString() : Format::bytes(std::uint64_t(std::llround(tick)));
    }
};

} // namespace

AnatomyChart::AnatomyChart(QWidget *parent)
    : QCustomPlot(parent), m_series(new QCPBars(yAxis, xAxis)),
      m_title(new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize())))
{
    plotLayout()->insertRow(0);
    plotLayout()->addElement(0, 0, m_title);
    m_series->setBrush(QColor(0x3b, 0x75, 0xaf));
    m_series->setPen(Qt::NoPen);
    m_series->setWidth(0.7);
    xAxis->setLabel(tr("bytes"));
    xAxis->setTicker(QSharedPointer<ByteTicker>::create());
    yAxis->setRangeReversed(true); // the heaviest on top
    setMinimumHeight(120);
    clearAnatomy(tr("Choose a document to see what makes it big."));
}

void AnatomyChart::clearAnatomy(const QString &note)
{
    m_bars.clear();
    m_series->data()->clear();
    yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_title->setText(note);
    replot(QCustomPlot::rpQueuedReplot);
}

void AnatomyChart::setAnatomy(const SizeAnatomy &anatomy, const QString &title)
{
    m_bars = anatomy.top(kBars);
    QVector<double> keys, values;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double most = 1;
    for (std::size_t i = 0; i < m_bars.size(); ++i) {
        const SizeAnatomy::Part &p = m_bars[i];
        keys << double(i + 1);
        values << double(p.bytes);
        most = std::max(most, double(p.bytes));
        ticker->addTick(double(i + 1), QStringLiteral("%1  %2 (%3)")
                                           .arg(Format::shortened(p.key, 32),
                                                Format::bytes(std::uint64_t(p.bytes)),
                                                Format::percent(anatomy.share(p.bytes))));
    }
    m_series->setData(keys, values, true);
    yAxis->setTicker(ticker);
    yAxis->setRange(0.4, double(m_bars.size()) + 0.6);
    xAxis->setRange(0, most * 1.05);
    m_title->setText(tr("%1: %2. Weight: %3, %4 (%5)")
                         .arg(title, Format::bytes(std::uint64_t(anatomy.documentBytes)),
                              Format::shortened(anatomy.heaviestPath, 80),
                              Format::bytes(std::uint64_t(anatomy.heaviest.bytes)),
                              Format::percent(anatomy.share(anatomy.heaviest.bytes))));
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace oe
