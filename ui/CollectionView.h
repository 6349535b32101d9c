#pragma once

#include "AnalysisProgress.h"
#include "AnalysisResult.h"

#include <QWidget>

class QTabWidget;

namespace oe {

class ArraysPage;
class OutliersPage;
class OverviewPage;
class SizesPage;
class SplitPreviewPage;

// The centre of the window for one analysed source: Overview, Document sizes, Arrays,
// Outliers and Split preview, kept in sync (the keep N chosen in Arrays is the preview's).
class CollectionView : public QWidget
{
    Q_OBJECT
public:
    explicit CollectionView(QWidget *parent = nullptr);
    void clear();
    void showProgress(const AnalysisProgress &progress);
    void setResult(const AnalysisResult &result);
    const AnalysisResult &result() const { return m_result; }
    bool hasResult() const { return m_hasResult; }
    // Every page shows the latest result (setResult fills them over a few event-loop turns).
    bool isApplied() const;

    // "overview", "sizes", "arrays", "outliers", "split"; false if unknown.
    bool showTab(const QString &name);
    static QStringList tabNames();
    QTabWidget *tabs() const { return m_tabs; }
    OverviewPage *overview() const { return m_overview; }
    SizesPage *sizes() const { return m_sizes; }
    ArraysPage *arrays() const { return m_arrays; }
    OutliersPage *outliers() const { return m_outliers; }
    SplitPreviewPage *splitPreview() const { return m_split; }

signals:
    void documentRequested(const oe::OutlierRow &row);
    void resultApplied();

private:
    QTabWidget *m_tabs;
    OverviewPage *m_overview;
    SizesPage *m_sizes;
    ArraysPage *m_arrays;
    OutliersPage *m_outliers;
    SplitPreviewPage *m_split;
    void applyNext(int generation);

    AnalysisResult m_result;
    bool m_hasResult = false;
    QList<QWidget *> m_pending; // pages still showing an older result
    int m_generation = 0;
};

} // namespace oe
