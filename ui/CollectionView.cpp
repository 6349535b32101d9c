#include "CollectionView.h"

#include "ArraysPage.h"
#include "OutliersPage.h"
#include "OverviewPage.h"
#include "SizesPage.h"
#include "SplitPreviewPage.h"

#include <QTabWidget>
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
    m_overview->setResult(result);
    m_sizes->setResult(result);
    m_outliers->setResult(result);
    m_split->setResult(result);
    m_arrays->setResult(result); // last: its keepChanged selects the preview's path and keep
}

} // namespace oe
