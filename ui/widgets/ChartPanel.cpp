#include "widgets/ChartPanel.h"

#include "charts/Format.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

#include <algorithm>

namespace oe {

ChartPanel::ChartPanel(HistogramChart::Unit unit, QWidget *parent)
    : QWidget(parent), m_chart(new HistogramChart(unit, this)),
      m_cdf(new QCheckBox(tr("Show &CDF"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_chart, 1);
    auto *tools = new QHBoxLayout;
    m_tools = tools;
    m_cdf->setToolTip(tr("Overlay the cumulative share of documents on the right axis."));
    tools->addWidget(m_cdf);
    tools->addStretch(1);
    m_hint = new QLabel(tr("Wheel: zoom · drag: pan · drag the dashed line: threshold"), this);
    m_hint->setEnabled(false);
    m_hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // see resizeEvent
    m_hint->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    tools->addWidget(m_hint, 100); // the free space goes to it while it shows
    auto *reset = new QPushButton(tr("Reset &zoom"), this);
    reset->setToolTip(tr("Show the whole distribution again."));
    tools->addWidget(reset);
    auto *save = new QPushButton(tr("Export chart…"), this);
    save->setToolTip(tr("Save this chart as PNG, PDF or SVG."));
    tools->addWidget(save);
    layout->addLayout(tools);
    connect(m_cdf, &QCheckBox::toggled, m_chart, &HistogramChart::setShowCdf);
    connect(reset, &QPushButton::clicked, m_chart, &HistogramChart::resetView);
    connect(save, &QPushButton::clicked, this, &ChartPanel::exportChart);
}

// The hint shows where the row has room for it whole; on a narrow window it gives way, and
// never pushes Show CDF or the buttons out.
void ChartPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitHint();
}

void ChartPanel::fitHint()
{
    // The tool row's preferred width (where the hint, its size policy Ignored, counts 0), and
    // the hint's.
    const int needed =
        m_tools->sizeHint().width() + m_hint->sizeHint().width() + std::max(0, m_tools->spacing());
    m_hint->setVisible(needed <= width());
}

void ChartPanel::setHint(const QString &text)
{
    m_hint->setText(text);
    fitHint();
}

void ChartPanel::setExportName(const QString &baseName)
{
    m_exportName = Format::fileNamePart(baseName); // names from the data: no '/', no '..'
}

QString ChartPanel::withExtension(const QString &path, const QString &filter)
{
    if (!QFileInfo(path).suffix().isEmpty())
        return path;
    static const QRegularExpression pattern(QStringLiteral("\\*\\.([a-z]+)"));
    const QRegularExpressionMatch m = pattern.match(filter);
    return m.hasMatch() ? path + QLatin1Char('.') + m.captured(1) : path;
}

void ChartPanel::exportChart()
{
    QString filter;
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export chart"), m_exportName + QStringLiteral(".png"),
        tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"), &filter);
    if (chosen.isEmpty())
        return;
    const QString path = withExtension(chosen, filter);
    QString error;
    if (!m_chart->exportTo(path, &error))
        QMessageBox::warning(this, tr("Export chart"), error);
}

} // namespace oe
