#pragma once

#include "AnalysisResult.h"

#include <QWidget>

class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace oe {

class ChartPanel;
class FieldTableModel;
class ThresholdControl;

// The array field paths with their statistics; the selected path's length histogram with
// "keep N" as a draggable line, a number and a recommendation, and what that N would move.
class ArraysPage : public QWidget
{
    Q_OBJECT
public:
    explicit ArraysPage(QWidget *parent = nullptr);
    void clear();
    void setResult(const AnalysisResult &result);
    // Selects a path (no-op if absent); the first row is selected after setResult().
    void selectPath(const QString &path);
    QString selectedPath() const { return m_path; }
    void setKeep(std::uint64_t keep); // from elsewhere (the split preview): no echo

    FieldTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    ChartPanel *panel() const { return m_panel; }
    ThresholdControl *control() const { return m_control; }
    QSplitter *splitter() const { return m_splitter; }

signals:
    void keepChanged(const QString &path, std::uint64_t keep);

private:
    void showField(const FieldProfile *field);
    void apply(std::uint64_t keep, bool notify);

    FieldTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    ChartPanel *m_panel;
    ThresholdControl *m_control;
    QSplitter *m_splitter;
    AnalysisResult m_result;
    QString m_path;
};

} // namespace oe
