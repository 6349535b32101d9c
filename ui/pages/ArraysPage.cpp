#include "pages/ArraysPage.h"

#include "analysis/ThresholdImpact.h"
#include "charts/Format.h"
#include "models/FieldTableModel.h"
#include "widgets/ChartPanel.h"
#include "widgets/ThresholdControl.h"
#include "workspace/KeepFigures.h"
#include "workspace/SourceState.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace oe {

ArraysPage::ArraysPage(QWidget *parent)
    : SourcePage(parent), m_model(new FieldTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)),
      m_panel(new ChartPanel(HistogramChart::Unit::Elements, this)),
      m_control(new ThresholdControl(tr("&Keep in primary:"), tr(" elements"), this)),
      m_splitter(new QSplitter(Qt::Vertical, this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(FieldTableModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FieldTableModel::MaxLength, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // Sized from the first rows only: measuring every row of a large table on each
    // layout would stall the window.
    m_table->horizontalHeader()->setResizeContentsPrecision(200);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Every column as wide as its contents (the path first: it names the row), the last one
    // taking what is left; a scroll bar when the page is narrower.
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_table->setToolTip(tr("Array field paths. Select one to see its length distribution; hover "
                           "a row for the split recommendation."));

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_control);
    bottomLayout->addWidget(m_panel, 1);
    m_splitter->addWidget(m_table);
    m_splitter->addWidget(bottom);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setObjectName(QStringLiteral("arraysSplitter"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                const FieldProfile *field = m_model->fieldAt(m_proxy->mapToSource(current).row());
                if (m_selecting || !field || !isCurrent())
                    return;
                state()->choosePath(QString::fromStdString(field->path));
            });
    connect(m_control, &ThresholdControl::valueChanged, this, [this](std::uint64_t v) {
        if (isCurrent())
            state()->setKeep(v);
    });
    connect(m_panel->chart(), &HistogramChart::thresholdDragged, this, [this](double v) {
        if (isCurrent())
            state()->setKeep(std::uint64_t(v));
    });
    clear();
}

void ArraysPage::bind(SourceState *state)
{
    connect(state, &SourceState::pathChanged, this, [this](const QString &path) {
        if (isCurrent())
            showPath(path);
    });
    connect(state, &SourceState::keepChanged, this, [this](std::uint64_t keep) {
        if (isCurrent())
            showKeep(keep);
    });
    for (auto signal : {&SourceState::planStarted, &SourceState::planChanged})
        connect(state, signal, this, [this] {
            if (isCurrent())
                showCounters();
        });
}

const AnalysisResult &ArraysPage::result() const
{
    static const AnalysisResult none;
    return state() ? state()->result() : none;
}

void ArraysPage::clear()
{
    m_model->clear();
    showField(nullptr);
}

void ArraysPage::showResult(const AnalysisResult &result)
{
    m_model->setResult(result);
    showPath(state()->path());
}

void ArraysPage::showPath(const QString &path)
{
    selectRow(path);
    showField(result().profile.field(path.toStdString()));
}

void ArraysPage::selectRow(const QString &path)
{
    const int row = m_model->rowOf(path.toStdString());
    m_selecting = true;
    if (row < 0)
        m_table->clearSelection();
    else
        m_table->selectRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
    m_selecting = false;
}

void ArraysPage::showField(const FieldProfile *field)
{
    if (!field) {
        m_path.clear();
        m_panel->chart()->setBins({});
        m_panel->chart()->setThreshold(std::nullopt);
        m_control->setRecommended(std::nullopt, {});
        m_control->setCounters(result().profile.documents > 0
                                   ? tr("No arrays in the analysed documents.")
                                   : tr("Run an analysis, then pick an array path above."));
        return;
    }
    m_path = QString::fromStdString(field->path);
    m_panel->setExportName(QStringLiteral("%1-%2-array-lengths")
                               .arg(result().request.source.collectionName(), m_path));
    m_panel->chart()->setBins(field->lengths.histogram().bins());
    const SplitRecommendation *rec = result().recommendationFor(field->path);
    const bool splittable = rec && rec->splittable;
    m_control->setRecommended(splittable ? std::optional<std::uint64_t>(rec->keep) : std::nullopt,
                              rec ? rec->explanation : QString());
    m_control->setEnabled(splittable);
    m_panel->chart()->setThresholdDraggable(splittable);
    showKeep(state()->keep());
    m_panel->chart()->resetView();
    if (!splittable && rec)
        m_control->setCounters(rec->explanation);
}

void ArraysPage::showKeep(std::uint64_t keep)
{
    const FieldProfile *field = result().profile.field(m_path.toStdString());
    if (!field)
        return;
    m_control->setValue(keep);
    m_panel->chart()->setThreshold(double(keep));
    showCounters();
}

// What the keep catches and the largest primary after the split: the words and figures of
// the wizard's Threshold page too (KeepFigures).
void ArraysPage::showCounters()
{
    const QString counters = KeepFigures::counters(*state());
    if (!counters.isEmpty())
        m_control->setCounters(counters);
}

} // namespace oe
