#include "pages/CollectionView.h"

#include "pages/ArraysPage.h"
#include "pages/DocumentsPage.h"
#include "pages/IndexesPage.h"
#include "pages/OutliersPage.h"
#include "pages/OverviewPage.h"
#include "pages/ShapePage.h"
#include "pages/SizesPage.h"
#include "pages/SplitPreviewPage.h"
#include "workspace/SourceState.h"

#include <QLineEdit>
#include <QTabWidget>

#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

namespace oe {

CollectionView::CollectionView(QWidget *parent)
    : QWidget(parent), m_tabs(new QTabWidget(this)), m_overview(new OverviewPage(this)),
      m_sizes(new SizesPage(this)), m_arrays(new ArraysPage(this)), m_shape(new ShapePage(this)),
      m_outliers(new OutliersPage(this)), m_split(new SplitPreviewPage(this)),
      m_documents(new DocumentsPage(this)),
      m_indexes(new IndexesPage(this)), m_pages{m_overview, m_sizes,    m_arrays,
                                                m_shape,    m_outliers, m_split},
      m_empty(new SourceState(this))
{
    m_tabs->addTab(m_overview, tr("&Overview"));
    m_tabs->addTab(m_sizes, tr("Document &sizes"));
    m_tabs->addTab(m_arrays, tr("Arra&ys"));
    m_tabs->addTab(m_shape, tr("Shape"));
    m_tabs->addTab(m_outliers, tr("O&utliers"));
    m_tabs->addTab(m_split, tr("Split &preview"));
    m_tabs->addTab(m_documents, tr("Docum&ents"));
    m_tabs->addTab(m_indexes, tr("Inde&xes"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    connect(m_overview, &OverviewPage::pathActivated, this, [this](const QString &path) {
        if (m_arrays->isCurrent())
            shown()->choosePath(path);
        m_tabs->setCurrentWidget(m_arrays);
    });
    connect(m_outliers, &OutliersPage::documentRequested, this, &CollectionView::documentRequested);
    connect(m_shape, &ShapePage::documentRequested, this, &CollectionView::documentRequested);
    connect(m_shape, &ShapePage::typeGuardRequested, this, &CollectionView::typeGuardRequested);
    connect(m_shape, &ShapePage::rewriteRequested, this, &CollectionView::rewriteRequested);
    connect(m_shape, &ShapePage::documentsRequested, this, [this](const QString &filter) {
        m_tabs->setCurrentWidget(m_documents);
        m_documents->showQuery(filter);
    });
    connect(m_documents, &DocumentsPage::documentSelected, m_indexes,
            [this](const QString &id) { m_indexes->idEdit()->setText(id); });
    connect(m_outliers, &OutliersPage::migrateRequested, this, &CollectionView::migrateRequested);
    connect(m_split, &SplitPreviewPage::migrateRequested, this, &CollectionView::migrateRequested);
    setState(nullptr);
}

void CollectionView::setState(SourceState *state)
{
    if (!state)
        state = m_empty;
    if (m_state == state)
        return;
    if (m_state)
        disconnect(m_state, nullptr, this, nullptr);
    m_state = state;
    for (SourcePage *page : m_pages)
        page->setState(state);
    connect(state, &SourceState::resultChanged, this, &CollectionView::refreshPages);
    connect(state, &SourceState::resultChanged, this, [this] { setSource(m_source); });
    refreshPages();
}

// Documents and Indexes need no analysis: the source, with the layout a split would use (the
// state's) and the largest outlier's _id for the read path, once there is a result.
void CollectionView::setSource(const SourceRef &source)
{
    m_source = source;
    SplitConfig layout = shown()->splitConfig();
    if (layout.collection.isEmpty() || !shown()->hasResult()) {
        layout = SplitConfig();
        layout.collection = source.collectionName();
        layout = layout.withDefaults();
    }
    QString id; // an array outlier's (the likeliest to be split), else the largest document's
    if (shown()->hasResult()) {
        const auto &rows = shown()->result().outliers.rows;
        const auto array = std::find_if(rows.begin(), rows.end(),
                                        [](const OutlierRow &r) { return !r.path.isEmpty(); });
        id = array != rows.end() ? array->id : rows.empty() ? QString() : rows.front().id;
    }
    m_documents->setSource(source, layout);
    m_indexes->setSource(source, layout, id);
}

void CollectionView::collectionWritten(const SourceRef &target)
{
    if (target.key() != m_source.key())
        return;
    setSource(m_source); // the layout names the split used
    m_indexes->reload();
}

QStringList CollectionView::tabNames()
{
    return {QStringLiteral("overview"),  QStringLiteral("sizes"),    QStringLiteral("arrays"),
            QStringLiteral("shape"),     QStringLiteral("outliers"), QStringLiteral("split"),
            QStringLiteral("documents"), QStringLiteral("indexes")};
}

bool CollectionView::showTab(const QString &name)
{
    const int index = int(tabNames().indexOf(name));
    if (index < 0)
        return false;
    m_tabs->setCurrentIndex(index);
    return true;
}

void CollectionView::showProgress(const AnalysisProgress &progress)
{
    m_sizes->showProgress(progress);
}

SourceState *CollectionView::shown() const
{
    return m_state ? m_state.data() : m_empty;
}

const AnalysisResult &CollectionView::result() const
{
    return shown()->result();
}

bool CollectionView::hasResult() const
{
    return shown()->hasResult();
}

void CollectionView::refreshPages()
{
    if (!shown()->hasResult()) {
        ++m_generation;
        m_pending.clear();
        for (SourcePage *page : m_pages)
            page->refresh();
        return;
    }
    // One page per event-loop turn, the visible one first: filling all five at once (tables,
    // charts, the preview) would hold the window for tens of milliseconds on a large result.
    QList<SourcePage *> order = m_pages;
    if (auto *current = qobject_cast<SourcePage *>(m_tabs->currentWidget())) {
        order.removeOne(current);
        order.prepend(current);
    }
    m_pending = order;
    refreshNext(++m_generation);
}

void CollectionView::refreshNext(int generation)
{
    if (generation != m_generation)
        return;
    if (m_pending.isEmpty()) {
        emit resultApplied();
        return;
    }
    m_pending.takeFirst()->refresh();
    QTimer::singleShot(0, this, [this, generation] { refreshNext(generation); });
}

bool CollectionView::isApplied() const
{
    return shown()->hasResult() && m_pending.isEmpty();
}

} // namespace oe
