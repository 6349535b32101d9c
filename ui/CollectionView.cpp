#include "CollectionView.h"

#include "ArraysPage.h"
#include "OutliersPage.h"
#include "OverviewPage.h"
#include "SizesPage.h"
#include "SplitPreviewPage.h"

#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace oe {

CollectionView::CollectionView(QWidget *parent)
    : QWidget(parent), m_tabs(new QTabWidget(this)), m_overview(new OverviewPage(this)),
      m_sizes(new SizesPage(this)), m_arrays(new ArraysPage(this)),
      m_outliers(new OutliersPage(this)), m_split(new SplitPreviewPage(this))
{
    m_tabs->addTab(m_overview, tr("&Overview"));
    m_tabs->addTab(m_sizes, tr("Document &sizes"));
    m_tabs->addTab(m_arrays, tr("&Arrays"));
    m_tabs->addTab(m_outliers, tr("O&utliers"));
    m_tabs->addTab(m_split, tr("Split &preview"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(m_overview, &OverviewPage::pathActivated, this, [this](const QString &path) {
        m_arrays->selectPath(path);
        m_tabs->setCurrentWidget(m_arrays);
    });
    connect(m_arrays, &ArraysPage::keepChanged, this,
            [this](const QString &path, std::uint64_t keep) {
                m_split->setPath(path);
                m_split->setKeep(keep);
            });
    connect(m_split, &SplitPreviewPage::keepChanged, this,
            [this](const QString &path, std::uint64_t keep) {
                if (m_arrays->selectedPath() != path)
                    m_arrays->selectPath(path);
                m_arrays->setKeep(keep);
            });
    connect(m_outliers, &OutliersPage::documentRequested, this, &CollectionView::documentRequested);
}

QStringList CollectionView::tabNames()
{
    return {QStringLiteral("overview"), QStringLiteral("sizes"), QStringLiteral("arrays"),
            QStringLiteral("outliers"), QStringLiteral("split")};
}

bool CollectionView::showTab(const QString &name)
{
    const int index = int(tabNames().indexOf(name));
    if (index < 0)
        return false;
    m_tabs->setCurrentIndex(index);
    return true;
}

void CollectionView::clear()
{
    ++m_generation;
    m_pending.clear();
    m_hasResult = false;
    m_result = AnalysisResult();
    m_overview->clear();
    m_sizes->clear();
    m_arrays->clear();
    m_outliers->clear();
    m_split->clear();
}

void CollectionView::showProgress(const AnalysisProgress &progress)
{
    m_sizes->showProgress(progress);
}

void CollectionView::setResult(const AnalysisResult &result)
{
    m_result = result;
    m_hasResult = true;
    // One page per event-loop turn, the visible one first: filling all five at once (tables,
    // charts, the preview) would hold the window for tens of milliseconds on a large result.
    // Arrays goes after the preview: its keepChanged selects the preview's path and keep.
    QList<QWidget *> order{m_overview, m_sizes, m_outliers, m_split, m_arrays};
    if (QWidget *current = m_tabs->currentWidget(); current != m_split) {
        order.removeOne(current);
        order.prepend(current);
    }
    m_pending = order;
    applyNext(++m_generation);
}

void CollectionView::applyNext(int generation)
{
    if (generation != m_generation)
        return;
    if (m_pending.isEmpty()) {
        emit resultApplied();
        return;
    }
    QWidget *page = m_pending.takeFirst();
    if (page == m_overview)
        m_overview->setResult(m_result);
    else if (page == m_sizes)
        m_sizes->setResult(m_result);
    else if (page == m_arrays)
        m_arrays->setResult(m_result);
    else if (page == m_outliers)
        m_outliers->setResult(m_result);
    else if (page == m_split)
        m_split->setResult(m_result);
    QTimer::singleShot(0, this, [this, generation] { applyNext(generation); });
}

bool CollectionView::isApplied() const
{
    return m_hasResult && m_pending.isEmpty();
}

} // namespace oe
