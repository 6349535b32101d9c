#pragma once

#include "analysis/SourceRef.h"
#include "mongo/CollectionBrowser.h"
#include "split/SplitConfig.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace oe {

class LatestJob;
class LogicalDocumentDialog;

// The Documents tab: any collection's documents through a query bar (filter, projection,
// sort as extended JSON, validated as you type; limit and skip), a page at a time, each row
// with its _id, BSON size and longest array. A double-click opens the document viewer; a split
// document opens as the application reads it (LogicalDocumentDialog). The overflow collection
// is browsed like any other.
class DocumentsPage : public QWidget
{
    Q_OBJECT
public:
    explicit DocumentsPage(QWidget *parent = nullptr);

    // The collection browsed (anything else shows a note) and the layout of its split.
    void setSource(const SourceRef &source, const SplitConfig &layout);
    // Runs the query bar's query; nothing while it names a problem.
    void find();
    // Runs `filter` (extended JSON) over the whole collection: projection, sort and skip
    // cleared; the filter stays in the query bar for the user to read and change.
    void showQuery(const QString &filter);
    void nextPage();
    void previousPage();
    void openDocument(int row);
    LogicalDocumentDialog *openLogical(int row);

    QLineEdit *filterEdit() const { return m_filter; }
    QLineEdit *projectionEdit() const { return m_projection; }
    QLineEdit *sortEdit() const { return m_sort; }
    QSpinBox *limitBox() const { return m_limit; }
    QSpinBox *skipBox() const { return m_skip; }
    QPushButton *findButton() const { return m_find; }
    QTableWidget *table() const { return m_table; }
    QString problemText() const;
    QString statusText() const;
    const std::vector<BrowsedDocument> &documents() const { return m_page.documents; }

signals:
    void pageShown();
    // The selected document's _id (relaxed extended JSON), e.g. for the read path on Indexes.
    void documentSelected(const QString &idJson);

private:
    DocumentQuery query() const;
    void validate();
    void showPage(const BrowsedPage &page);
    void updateButtons();

    SourceRef m_source;
    SplitConfig m_layout;
    QLineEdit *m_filter, *m_projection, *m_sort;
    QSpinBox *m_limit, *m_skip;
    QPushButton *m_find, *m_previous, *m_next, *m_logical;
    QLabel *m_problem, *m_status;
    QTableWidget *m_table;
    LatestJob *m_job;
    BrowsedPage m_page;
};

} // namespace oe
