#pragma once

#include "pages/SourcePage.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace oe {

class OutlierTableModel;

// The outlier documents, sortable and filterable (text over every column, and by reason);
// double-click (or Enter) opens a document.
class OutliersPage : public SourcePage
{
    Q_OBJECT
public:
    explicit OutliersPage(QWidget *parent = nullptr);
    void clear() override;
    void showResult(const AnalysisResult &result) override;

    OutlierTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *table() const { return m_table; }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *reasonBox() const { return m_reason; }
    // Opens the document of the row at this proxy index (as a double-click does).
    void activate(const QModelIndex &proxyIndex);

protected:
    void bind(SourceState *state) override;

signals:
    void documentRequested(const oe::OutlierRow &row);
    void migrateRequested(); // from a row's context menu (its path chosen first)

private:
    void updateCount();
    void showContextMenu(const QPoint &at);

    OutlierTableModel *m_model;
    QSortFilterProxyModel *m_reasonProxy;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLineEdit *m_filter;
    QComboBox *m_reason;
    QLabel *m_count;
};

} // namespace oe
