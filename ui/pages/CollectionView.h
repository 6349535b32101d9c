#pragma once

#include "explore/AnalysisResult.h"
#include "guard/GuardRule.h"
#include "jobs/AnalysisProgress.h"
#include "remedy/RewriteConfig.h"
#include "workspace/SourceState.h"

#include <QList>
#include <QPointer>
#include <QWidget>

class QTabWidget;

namespace oe {

class ArraysPage;
class DocumentsPage;
class IndexesPage;
class OutliersPage;
class OverviewPage;
class ShapePage;
class SizesPage;
class SourcePage;
class SplitPreviewPage;

// The centre of the window for one source: Overview, Document sizes, Arrays, Shape, Outliers
// and Split preview, all bound to that source's SourceState (its result and the user's choices:
// the keep N chosen in Arrays is the preview's because both are the state's).
class CollectionView : public QWidget
{
    Q_OBJECT
public:
    explicit CollectionView(QWidget *parent = nullptr);
    // Shows another source's state (the view does not own it); null shows an empty one.
    void setState(SourceState *state);
    // The source the Documents and Indexes tabs browse (with or without an analysis).
    void setSource(const SourceRef &source);
    // A migration wrote to `target`: the Indexes tab reads it again if it shows it.
    void collectionWritten(const SourceRef &target);
    SourceState *state() const { return shown(); }
    void showProgress(const AnalysisProgress &progress);
    const AnalysisResult &result() const;
    bool hasResult() const;
    // Every page shows the state's latest result (pages are filled over a few event-loop turns).
    bool isApplied() const;

    // "overview", "sizes", "arrays", "shape", "outliers", "split", "documents", "indexes";
    // false if unknown.
    bool showTab(const QString &name);
    static QStringList tabNames();
    QTabWidget *tabs() const { return m_tabs; }
    OverviewPage *overview() const { return m_overview; }
    SizesPage *sizes() const { return m_sizes; }
    ArraysPage *arrays() const { return m_arrays; }
    ShapePage *shape() const { return m_shape; }
    OutliersPage *outliers() const { return m_outliers; }
    SplitPreviewPage *splitPreview() const { return m_split; }
    DocumentsPage *documents() const { return m_documents; }
    IndexesPage *indexes() const { return m_indexes; }

signals:
    void documentRequested(const oe::OutlierRow &row);
    void resultApplied();
    void migrateRequested(); // the Split preview's Migrate…, an outlier's context menu
    void typeGuardRequested(const oe::SourceRef &source, const oe::GuardRule &rule);
    void rewriteRequested(const oe::SourceRef &source, const oe::RewriteConfig &config);

private:
    SourceState *shown() const;
    void refreshPages();
    void refreshNext(int generation);

    QTabWidget *m_tabs;
    OverviewPage *m_overview;
    SizesPage *m_sizes;
    ArraysPage *m_arrays;
    ShapePage *m_shape;
    OutliersPage *m_outliers;
    SplitPreviewPage *m_split;
    DocumentsPage *m_documents;
    IndexesPage *m_indexes;
    SourceRef m_source;
    QList<SourcePage *> m_pages;
    SourceState *m_empty; // shown when no source's state is
    QPointer<SourceState> m_state;
    QList<SourcePage *> m_pending; // pages still showing an older result
    int m_generation = 0;
};

} // namespace oe
