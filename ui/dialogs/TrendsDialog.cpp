#include "dialogs/TrendsDialog.h"

#include "charts/Format.h"
#include "charts/TrendsChart.h"
#include "dialogs/ShapeTrendsTable.h"
#include "dialogs/TableCell.h"
#include "history/HistoryStore.h"
#include "jobs/LatestJob.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace oe {

namespace {

const QColor kColours[] = {QColor(0x1c, 0x7e, 0xd6), QColor(0x2f, 0x9e, 0x44),
                           QColor(0xd9, 0x48, 0x0f), QColor(0x86, 0x2e, 0x9c),
                           QColor(0xe6, 0x77, 0x00), QColor(0x0b, 0x72, 0x85)};

QString change(double a, double b)
{
    if (a == b)
        return QStringLiteral("=");
    if (a == 0)
        return QStringLiteral("new");
    return QStringLiteral("%1%2 %")
        .arg(b > a ? QStringLiteral("+") : QString())
        .arg((b - a) / a * 100.0, 0, 'f', 1);
}

} // namespace

TrendsDialog::TrendsDialog(const SourceRef &source, std::uint64_t sizeThreshold, QWidget *parent)
    : QDialog(parent), m_source(source), m_threshold(sizeThreshold), m_title(new QLabel(this)),
      m_forecast(new QLabel(this)), m_sizes(new TrendsChart(TrendsChart::Unit::Bytes, this)),
      m_arrays(new TrendsChart(TrendsChart::Unit::Elements, this)), m_runs(new QTableWidget(this)),
      m_compare(new QPushButton(tr("Com&pare the two selected runs"), this)),
      m_comparison(new QTableWidget(this)), m_shape(new ShapeTrendsTable(this)),
      m_job(new LatestJob(this))
{
    setWindowTitle(tr("Trends — %1").arg(source.displayName()));
    resize(1000, 820);
    m_title->setWordWrap(true);
    m_forecast->setWordWrap(true);
    m_forecast->setTextFormat(Qt::RichText);
    m_forecast->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A wrapped label in a layout gets one line unless told: room for the forecast's lines.
    m_forecast->setMinimumHeight(m_forecast->fontMetrics().lineSpacing() * 5);
    m_forecast->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_sizes->setMinimumHeight(200);
    m_arrays->setMinimumHeight(160);
    const QStringList headers = {tr("When (UTC)"), tr("From"),     tr("Mode"),
                                 tr("Documents"),  tr("Size p50"), tr("Size p99"),
                                 tr("Largest"),    tr("Outliers"), tr("Longest array")};
    m_runs->setColumnCount(int(headers.size()));
    m_runs->setHorizontalHeaderLabels(headers);
    m_runs->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runs->setSelectionMode(QAbstractItemView::MultiSelection);
    m_runs->verticalHeader()->hide();
    m_runs->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_comparison->setColumnCount(4);
    m_comparison->setHorizontalHeaderLabels(
        {tr("Figure"), tr("Older run"), tr("Newer run"), tr("Change")});
    m_comparison->verticalHeader()->hide();
    m_comparison->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_comparison->hide();
    m_compare->setEnabled(false);

    auto *charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(m_sizes);
    charts->addWidget(m_arrays);
    auto *tables = new QWidget(this);
    auto *tablesLayout = new QVBoxLayout(tables);
    tablesLayout->setContentsMargins(0, 0, 0, 0);
    tablesLayout->addWidget(m_runs, 2);
    auto *row = new QHBoxLayout;
    row->addWidget(m_compare);
    row->addStretch(1);
    tablesLayout->addLayout(row);
    tablesLayout->addWidget(m_comparison, 2);
    tablesLayout->addWidget(new QLabel(tr("Schema outliers of shape, run by run:"), this));
    tablesLayout->addWidget(m_shape, 2);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(charts);
    split->addWidget(tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *refresh = buttons->addButton(tr("&Refresh"), QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_forecast);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(refresh, &QPushButton::clicked, this, &TrendsDialog::reload);
    connect(m_runs, &QTableWidget::itemSelectionChanged, this, [this] {
        m_compare->setEnabled(m_runs->selectionModel()->selectedRows().size() == 2);
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_runs->selectionModel()->selectedRows();
        if (rows.size() == 2)
            compare(std::min(rows[0].row(), rows[1].row()), std::max(rows[0].row(), rows[1].row()));
    });
    reload();
}

void TrendsDialog::reload()
{
    const QString key = HistoryStore::sourceKeyOf(m_source);
    m_title->setText(tr("Loading the analysis history of %1…").arg(key));
    const double threshold = m_threshold ? double(m_threshold) : GrowthForecast::kLimit / 2;
    m_job->start(
        [key, threshold] {
            Data data;
            const HistoryStore store;
            if (!store.isOpen()) {
                data.error = store.error();
                return data;
            }
            data.runs = store.runs(key);
            for (const HistoryRun &r : data.runs) {
                data.paths[r.id] = store.paths(r.id);
                data.shape[r.id] = store.shapeFlags(r.id);
            }
            data.forecast = SourceForecast::of(store, data.runs, threshold);
            return data;
        },
        [this](const Data &data) { showData(data); });
}

void TrendsDialog::showData(const Data &data)
{
    m_data = data;
    const QString key = HistoryStore::sourceKeyOf(m_source);
    if (!data.error.isEmpty())
        m_title->setText(tr("The analysis history could not be read: %1").arg(data.error));
    else if (data.runs.empty())
        m_title->setText(tr("%1 has no analysis in the history yet: run one (F5), here or with "
                            "outlier-explorer-cli analyze.")
                             .arg(key));
    else
        m_title->setText(tr("%1: analyses from %2 to %3 (%4).")
                             .arg(key, data.runs.front().at.toString(Qt::ISODate),
                                  data.runs.back().at.toString(Qt::ISODate))
                             .arg(data.runs.size()));
    showCharts();
    showRuns();
    m_shape->show(m_data.runs, m_data.shape);
    showForecast();
    emit loaded(data.error.isEmpty());
}

void TrendsDialog::showCharts()
{
    TrendsChart::Series p50{tr("size p50"), kColours[0], {}};
    TrendsChart::Series p99{tr("size p99"), kColours[1], {}};
    TrendsChart::Series max{tr("largest document"), kColours[2], {}};
    // The longest arrays: the five paths longest in the last run.
    std::map<QString, TrendsChart::Series> byPath;
    for (const HistoryRun &r : m_data.runs) {
        p50.points.emplace_back(r.at, double(r.sizeP50));
        p99.points.emplace_back(r.at, double(r.sizeP99));
        max.points.emplace_back(r.at, double(r.sizeMax));
        for (const HistoryPath &p : m_data.paths[r.id])
            byPath[p.path].points.emplace_back(r.at, double(p.lengthMax));
    }
    m_sizes->setSeries({p50, p99, max});
    m_sizes->setThreshold(m_threshold ? std::optional<double>(double(m_threshold)) : std::nullopt,
                          tr("size threshold %1").arg(Format::bytes(m_threshold)));
    std::vector<std::pair<double, QString>> latest;
    if (!m_data.runs.empty())
        for (const HistoryPath &p : m_data.paths[m_data.runs.back().id])
            latest.emplace_back(double(p.lengthMax), p.path);
    std::sort(latest.begin(), latest.end(), std::greater<>());
    std::vector<TrendsChart::Series> arrays;
    for (std::size_t i = 0; i < latest.size() && i < 5; ++i) {
        TrendsChart::Series s = byPath[latest[i].second];
        s.name = tr("longest %1").arg(latest[i].second);
        s.colour = kColours[(i + 3) % std::size(kColours)];
        arrays.push_back(s);
    }
    m_arrays->setSeries(arrays);
}

void TrendsDialog::showRuns()
{
    m_runs->clearSelection();
    m_runs->setRowCount(int(m_data.runs.size()));
    for (int i = 0; i < int(m_data.runs.size()); ++i) {
        const HistoryRun &r = m_data.runs[std::size_t(i)];
        const QStringList cells = {
            r.at.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss")),
            r.origin == QLatin1String("gui") ? tr("window") : tr("CLI"),
            r.mode,
            Format::count(r.documents),
            Format::bytes(r.sizeP50),
            Format::bytes(r.sizeP99),
            Format::bytes(r.sizeMax),
            Format::count(r.outlierDocuments),
            r.longestPath.isEmpty()
                ? QString()
                : QStringLiteral("%1 (%2)").arg(r.longestPath, Format::count(r.longestArray))};
        for (int c = 0; c < cells.size(); ++c)
            m_runs->setItem(i, c, tableCell(cells[c], c >= 3 && c <= 7));
    }
    m_comparison->hide();
}

void TrendsDialog::showForecast()
{
    const QStringList lines = m_data.forecast.lines(m_data.runs.size());
    QString text = tr("<b>Forecast</b> (from the history; the size threshold is %1): %2")
                       .arg(Format::bytes(m_threshold ? m_threshold
                                                      : std::uint64_t(GrowthForecast::kLimit / 2)),
                            lines.value(0).toHtmlEscaped());
    for (const QString &line : lines.mid(1))
        text += QStringLiteral("<br>") + line.toHtmlEscaped();
    m_forecast->setText(text);
}

void TrendsDialog::compare(int a, int b)
{
    if (a < 0 || b < 0 || a >= int(m_data.runs.size()) || b >= int(m_data.runs.size()))
        return;
    const HistoryRun &older = m_data.runs[std::size_t(a)];
    const HistoryRun &newer = m_data.runs[std::size_t(b)];
    struct Row
    {
        QString figure;
        double a, b;
        bool bytes;
    };
    std::vector<Row> rows = {
        {tr("documents"), double(older.documents), double(newer.documents), false},
        {tr("size p50"), double(older.sizeP50), double(newer.sizeP50), true},
        {tr("size p99"), double(older.sizeP99), double(newer.sizeP99), true},
        {tr("largest document"), double(older.sizeMax), double(newer.sizeMax), true},
        {tr("outlier documents"), double(older.outlierDocuments), double(newer.outlierDocuments),
         false}};
    std::map<QString, std::pair<double, double>> paths;
    for (const HistoryPath &p : m_data.paths[older.id])
        paths[p.path].first = double(p.lengthMax);
    for (const HistoryPath &p : m_data.paths[newer.id])
        paths[p.path].second = double(p.lengthMax);
    for (const auto &[path, lengths] : paths)
        rows.push_back({tr("longest %1").arg(path), lengths.first, lengths.second, false});
    // The shape's flags by what they count: a mix or a key count that drifted.
    std::map<QString, std::pair<double, double>> flags;
    const auto flagName = [](const HistoryShapeFlag &f) {
        return QStringList{f.kind, f.path, f.type}.join(QLatin1Char(' ')).trimmed();
    };
    for (const HistoryShapeFlag &f : m_data.shape[older.id])
        flags[flagName(f)].first = double(f.count);
    for (const HistoryShapeFlag &f : m_data.shape[newer.id])
        flags[flagName(f)].second = double(f.count);
    for (const auto &[name, counts] : flags)
        rows.push_back({name, counts.first, counts.second, false});
    m_comparison->setRowCount(int(rows.size()));
    const auto shown = [](double v, bool bytes) {
        return bytes ? Format::bytes(std::uint64_t(v)) : Format::count(std::uint64_t(v));
    };
    for (int i = 0; i < int(rows.size()); ++i) {
        const Row &r = rows[std::size_t(i)];
        m_comparison->setItem(i, 0, tableCell(r.figure));
        m_comparison->setItem(i, 1, tableCell(shown(r.a, r.bytes), true));
        m_comparison->setItem(i, 2, tableCell(shown(r.b, r.bytes), true));
        m_comparison->setItem(i, 3, tableCell(change(r.a, r.b), true));
    }
    m_comparison->setHorizontalHeaderLabels(
        {tr("Figure"), older.at.toString(QStringLiteral("yyyy-MM-dd hh:mm")),
         newer.at.toString(QStringLiteral("yyyy-MM-dd hh:mm")), tr("Change")});
    m_comparison->show();
}

} // namespace oe
