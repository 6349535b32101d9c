#include "explorer/ChartPanel.h"

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

namespace oe {

ChartPanel::ChartPanel(HistogramChart::Unit unit, QWidget *parent)
    : QWidget(parent), m_chart(new HistogramChart(unit, this)),
      m_cdf(new QCheckBox(tr("Show &CDF"), this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_chart, 1);
    auto *tools = new QHBoxLayout;
    m_cdf->setToolTip(tr("Overlay the cumulative share of documents on the right axis."));
    tools->addWidget(m_cdf);
    tools->addStretch(1);
    m_hint = new QLabel(tr("Wheel: zoom · drag: pan · drag the dashed line: threshold"), this);
    m_hint->setEnabled(false);
    tools->addWidget(m_hint);
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

void ChartPanel::setHint(const QString &text)
{
    m_hint->setText(text);
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
