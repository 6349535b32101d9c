#pragma once

#include "pages/SourcePage.h"

class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace oe {

class ChartPanel;
class FieldTableModel;
class ThresholdControl;

// The array field paths with their statistics; the selected path's length histogram with
// "keep N" as a draggable line, a number and a recommendation, and what that N would move.
// The path and keep are the state's: selecting a row chooses the path, the number, the line
// and the button set the keep.
class ArraysPage : public SourcePage
{
    Q_OBJECT
public:
    explicit ArraysPage(QWidget *parent = nullptr);
    void clear() override;
    void showResult(const AnalysisResult &result) override;
    QString selectedPath() const { return m_path; }

    FieldTableModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    ChartPanel *panel() const { return m_panel; }
    ThresholdControl *control() const { return m_control; }
    QSplitter *splitter() const { return m_splitter; }

protected:
    void bind(SourceState *state) override;

private:
    void selectRow(const QString &path);
    void showPath(const QString &path);
    void showField(const FieldProfile *field);
    void showKeep(std::uint64_t keep);
    void showCounters();
    const AnalysisResult &result() const;

    FieldTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    ChartPanel *m_panel;
    ThresholdControl *m_control;
    QSplitter *m_splitter;
    QString m_path;           // the path on display
    bool m_selecting = false; // a row selected from the state, not by the user
};

} // namespace oe
