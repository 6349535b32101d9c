#include "dialogs/WhatIfDialog.h"

#include "whatif/WhatIfOptions.h"

#include "charts/Format.h"
#include "jobs/LatestJob.h"
#include "mongo/UriRedactor.h"
#include "output/StagedOutput.h"
#include "whatif/WhatIfBenchmark.h"
#include "workspace/SourceState.h"

#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace oe {

namespace {

struct Outcome
{
    bool ok = false;
    QString scratch;
    QString error;
};

void setUpChart(QCustomPlot *chart)
{
    chart->setMinimumHeight(220);
    chart->xAxis->setLabel(
        QCoreApplication::translate("WhatIfDialog", "elements already in the document"));
    chart->yAxis->setLabel(QCoreApplication::translate("WhatIfDialog", "ms per append (mean)"));
    chart->xAxis->setScaleType(QCPAxis::stLogarithmic);
    chart->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    for (const auto &[name, color] :
         {std::pair{QCoreApplication::translate("WhatIfDialog", "unbounded $push"),
                    QColor(0xd9, 0x5f, 0x2b)},
          std::pair{QCoreApplication::translate("WhatIfDialog", "split layout append"),
                    QColor(0x3b, 0x7d, 0xc4)}}) {
        QCPGraph *g = chart->addGraph();
        g->setName(name);
        g->setPen(QPen(color, 2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    }
    chart->legend->setVisible(true);
    chart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
}

} // namespace

WhatIfDialog::WhatIfDialog(const QString &connection, ConnectionSettings settings, QWidget *parent)
    : QDialog(parent), m_settings(std::move(settings)), m_sizes(new QLineEdit(this)),
      m_ops(new QSpinBox(this)), m_keep(new QSpinBox(this)), m_pageSize(new QSpinBox(this)),
      m_elementBytes(new QSpinBox(this)), m_run(new QPushButton(tr("&Run"), this)),
      m_stop(new QPushButton(tr("&Stop"), this)),
      m_export(new QPushButton(tr("&Export CSV…"), this)), m_table(new QTableWidget(0, 5, this)),
      m_chart(new QCustomPlot(this)), m_status(new QLabel(this)), m_job(new LatestJob(this))
{
    setWindowTitle(tr("What if — %1").arg(connection));
    resize(760, 620);
    m_sizes->setText(QStringLiteral("100,1000,5000,10000"));
    m_sizes->setToolTip(tr("Elements already in the document, comma-separated."));
    m_ops->setRange(1, 100000);
    m_ops->setValue(100);
    const WhatIfOptions defaults;
    m_keep->setRange(0, 1000000);
    m_keep->setValue(defaults.keep);
    m_keep->setToolTip(tr("Elements kept in the document by the split layout."));
    m_pageSize->setRange(1, 1000000);
    m_pageSize->setValue(defaults.pageSize);
    m_pageSize->setToolTip(tr("Elements per overflow page."));
    m_elementBytes->setRange(8, 1 << 20);
    m_elementBytes->setValue(defaults.elementBytes);
    m_elementBytes->setSuffix(tr(" B"));
    m_elementBytes->setToolTip(tr("BSON bytes of one array element (the analysed array's mean)."));
    m_table->setHorizontalHeaderLabels(
        {tr("elements"), tr("document"), tr("unbounded ms"), tr("split ms"), tr("speed-up")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    setUpChart(m_chart);
    m_status->setWordWrap(true);
    m_status->setText(
        tr("Times an append to a document already holding N elements on %1, unbounded against "
           "the split layout, in a scratch database that is dropped afterwards. The figures are "
           "this server's: its version, storage engine, hardware, load and the network to it "
           "decide them; run it against the cluster the application uses.")
            .arg(UriRedactor::redact(m_settings.uri)));
    auto *form = new QFormLayout;
    form->addRow(tr("Si&zes:"), m_sizes);
    form->addRow(tr("&Appends per size:"), m_ops);
    auto *layoutRow = new QHBoxLayout;
    layoutRow->addWidget(new QLabel(tr("keep"), this));
    layoutRow->addWidget(m_keep);
    layoutRow->addWidget(new QLabel(tr("page size"), this));
    layoutRow->addWidget(m_pageSize);
    layoutRow->addWidget(new QLabel(tr("element"), this));
    layoutRow->addWidget(m_elementBytes);
    layoutRow->addStretch(1);
    auto *layoutLabel = new QLabel(tr("Split &layout:"), this);
    layoutLabel->setBuddy(m_keep);
    form->addRow(layoutLabel, layoutRow);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    buttons->addWidget(m_export);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_table);
    layout->addWidget(m_chart, 1);
    m_stop->setEnabled(false);
    m_export->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &WhatIfDialog::start);
    connect(m_stop, &QPushButton::clicked, this, &WhatIfDialog::stop);
    connect(m_export, &QPushButton::clicked, this, [this] { exportCsv(); });
}

WhatIfDialog::~WhatIfDialog()
{
    stop();
}

void WhatIfDialog::start()
{
    WhatIfOptions options;
    options.ops = m_ops->value();
    options.keep = m_keep->value();
    options.pageSize = m_pageSize->value();
    options.elementBytes = m_elementBytes->value();
    options.sizes.clear();
    for (const QString &part : m_sizes->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 0 || n > 1000000) {
            m_status->setText(
                tr("Sizes: '%1' is not a whole number from 0 to 1,000,000.").arg(part.trimmed()));
            return;
        }
        options.sizes << n;
    }
    m_rows.clear();
    m_table->setRowCount(0);
    for (int g = 0; g < m_chart->graphCount(); ++g)
        m_chart->graph(g)->data()->clear();
    m_chart->replot();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_run->setEnabled(false);
    m_stop->setEnabled(true);
    m_export->setEnabled(false);
    m_status->setText(tr("Measuring…"));
    QPointer<WhatIfDialog> self(this);
    m_job->start(
        [settings = m_settings, options, cancel = m_cancel, self] {
            Outcome out;
            std::vector<WhatIfRow> rows;
            SourceError error;
            out.ok = WhatIfBenchmark::run(
                settings, options, &rows, &out.scratch, &error, cancel.get(),
                [self](const WhatIfRow &row) { // to the GUI thread; the dialog may be gone
                    QMetaObject::invokeMethod(
                        QCoreApplication::instance(),
                        [self, row] {
                            if (self)
                                self->addRow(row);
                        },
                        Qt::QueuedConnection);
                });
            out.error = error.toString();
            return out;
        },
        [this](const Outcome &out) {
            done(out.ok, out.ok ? tr("Done; the scratch database %1 was dropped.").arg(out.scratch)
                                : out.error);
        });
}

void WhatIfDialog::setLayout(int keep, int pageSize, int elementBytes)
{
    m_keep->setValue(keep);
    m_pageSize->setValue(pageSize);
    m_elementBytes->setValue(elementBytes);
}

void WhatIfDialog::takeLayoutOf(const SourceState &state)
{
    if (!state.hasResult() || state.path().isEmpty())
        return;
    const FieldProfile *field = state.result().profile.field(state.path().toStdString());
    const double elementBytes = field ? field->meanElementBytes() : 0.0;
    setLayout(int(std::min<std::uint64_t>(state.keep(), 1000000)),
              int(std::min<std::uint64_t>(state.splitConfig().pageSize, 1000000)),
              elementBytes >= 8 ? int(elementBytes + 0.5) : WhatIfOptions().elementBytes);
}

void WhatIfDialog::stop()
{
    if (m_cancel)
        m_cancel->store(true);
}

void WhatIfDialog::addRow(const WhatIfRow &r)
{
    m_rows.push_back(r);
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QStringList cells{
        Format::count(std::uint64_t(r.elements)), Format::bytes(r.documentBytes),
        QString::number(r.unboundedMeanMs, 'f', 3), QString::number(r.splitMeanMs, 'f', 3),
        QStringLiteral("%1×").arg(r.speedup(), 0, 'f', 1)};
    for (int c = 0; c < cells.size(); ++c)
        m_table->setItem(row, c, new QTableWidgetItem(cells[c]));
    const double x = std::max(1, r.elements);
    m_chart->graph(0)->addData(x, r.unboundedMeanMs);
    m_chart->graph(1)->addData(x, r.splitMeanMs);
    m_chart->rescaleAxes();
    const QCPRange keys = m_chart->xAxis->range(); // room around the first and last points
    m_chart->xAxis->setRange(keys.lower / 1.5, keys.upper * 1.5);
    m_chart->yAxis->setRange(0, m_chart->yAxis->range().upper * 1.1);
    m_chart->replot();
}

void WhatIfDialog::done(bool ok, const QString &message)
{
    m_run->setEnabled(true);
    m_stop->setEnabled(false);
    m_export->setEnabled(!m_rows.empty());
    const bool legacy = std::any_of(m_rows.begin(), m_rows.end(),
                                    [](const WhatIfRow &r) { return r.legacyWritePath; });
    const QString note =
        legacy ? tr(" The server refused an update pipeline, so the split append is the legacy "
                    "write path (four round trips, not safe against concurrent writers on this "
                    "server).")
               : QString();
    m_status->setText((ok ? message : tr("Stopped: %1").arg(message)) + note);
    emit finished(ok, message);
}

bool WhatIfDialog::exportCsv(const QString &chosen)
{
    const QString file =
        chosen.isEmpty()
            ? QFileDialog::getSaveFileName(this, tr("Export CSV"), QStringLiteral("whatif.csv"),
                                           tr("CSV files (*.csv)"))
            : chosen;
    if (file.isEmpty())
        return false;
    SourceError error;
    const bool ok = StagedOutput::writeFile(file, WhatIfBenchmark::csv(m_rows), &error);
    m_status->setText(
        ok ? tr("Written to %1.").arg(QDir::toNativeSeparators(file))
           : tr("Could not write %1: %2").arg(QDir::toNativeSeparators(file), error.message));
    return ok;
}

} // namespace oe
