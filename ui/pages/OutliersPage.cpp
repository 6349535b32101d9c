#include "pages/OutliersPage.h"

#include "workspace/SourceState.h"

#include "charts/Format.h"
#include "models/OutlierTableModel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace oe {

OutliersPage::OutliersPage(QWidget *parent)
    : SourcePage(parent), m_model(new OutlierTableModel(this)),
      m_reasonProxy(new QSortFilterProxyModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)), m_filter(new QLineEdit(this)), m_reason(new QComboBox(this)),
      m_count(new QLabel(this))
{
    // Reason filter first (exact match on the code), then free text over every column.
    m_reasonProxy->setSourceModel(m_model);
    m_reasonProxy->setFilterRole(OutlierTableModel::ReasonRole);
    m_reasonProxy->setFilterKeyColumn(OutlierTableModel::Reason);
    m_proxy->setSourceModel(m_reasonProxy);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortRole(OutlierTableModel::SortRole);

    m_filter->setPlaceholderText(tr("Filter by _id, path or reason…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Shows rows where any column contains this text."));
    m_reason->setToolTip(tr("Show one reason only."));
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filter, 2);
    bar->addWidget(m_reason, 1);
    bar->addWidget(m_count);

    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OutlierTableModel::Size, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    // Sized from the first rows only: measuring every row of a large table on each
    // layout would stall the window.
    m_table->horizontalHeader()->setResizeContentsPrecision(200);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(OutlierTableModel::Id, QHeaderView::Stretch);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    auto *hint = new QLabel(tr("Double-click a row (or press Enter) to open the document."), this);
    hint->setEnabled(false);
    layout->addWidget(hint);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterFixedString(text);
        updateCount();
    });
    connect(m_reason, &QComboBox::currentIndexChanged, this, [this] {
        const QString code = m_reason->currentData().toString();
        m_reasonProxy->setFilterRegularExpression(
            code.isEmpty() ? QString() : OutlierTableModel::reasonPattern(code));
        updateCount();
    });
    connect(m_table, &QTableView::activated, this, &OutliersPage::activate);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, &OutliersPage::showContextMenu);
    clear();
}

// Open the document, or migrate: its array path becomes the state's, then the wizard opens.
void OutliersPage::showContextMenu(const QPoint &at)
{
    const QModelIndex index = m_table->indexAt(at);
    if (!index.isValid())
        return;
    const QModelIndex source = m_reasonProxy->mapToSource(m_proxy->mapToSource(index));
    const OutlierRow *row = m_model->rowAt(source.row());
    if (!row)
        return;
    const OutlierRow copy = *row;
    QMenu menu(this);
    menu.addAction(tr("&Open the document"), this, [this, index] { activate(index); });
    menu.addAction(copy.path.isEmpty() ? tr("&Migrate to the outlier pattern…")
                                       : tr("&Migrate %1 to the outlier pattern…").arg(copy.path),
                   this, [this, copy] {
                       if (!copy.path.isEmpty() && state())
                           state()->choosePath(copy.path);
                       emit migrateRequested();
                   });
    menu.exec(m_table->viewport()->mapToGlobal(at));
}

void OutliersPage::clear()
{
    showResult(AnalysisResult());
}

void OutliersPage::showResult(const AnalysisResult &result)
{
    m_model->setRows(result.outliers.rows);
    m_reason->blockSignals(true);
    m_reason->clear();
    m_reason->addItem(tr("All reasons"), QString());
    for (const QString &code : m_model->reasons())
        m_reason->addItem(code, code);
    m_reason->blockSignals(false);
    m_reasonProxy->setFilterRegularExpression(QString());
    updateCount();
}

void OutliersPage::activate(const QModelIndex &proxyIndex)
{
    const QModelIndex reasonIndex = m_proxy->mapToSource(proxyIndex);
    const QModelIndex source = m_reasonProxy->mapToSource(reasonIndex);
    if (const OutlierRow *row = m_model->rowAt(source.row()))
        emit documentRequested(*row);
}

void OutliersPage::updateCount()
{
    m_count->setText(tr("%1 of %2 rows")
                         .arg(Format::count(std::uint64_t(m_proxy->rowCount())),
                              Format::count(std::uint64_t(m_model->rowCount()))));
}

// A threshold chosen on a chart re-detects the outliers: shown here at once.
void OutliersPage::bind(SourceState *state)
{
    connect(state, &SourceState::outliersChanged, this, [this] {
        if (isCurrent())
            showResult(this->state()->result());
    });
}

} // namespace oe
