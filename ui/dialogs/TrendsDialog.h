#pragma once

#include "analysis/SourceRef.h"
#include "history/HistoryRun.h"
#include "history/SourceForecast.h"

#include <QDialog>

#include <map>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace oe {

class LatestJob;
class ShapeTrendsTable;
class TrendsChart;

// Analysis → Trends… for a source: its analyses in the history (the window's and the CLI's):
// document sizes (p50, p99, max) and the longest arrays over time, the forecast of its largest
// document and of its largest documents (when they cross the size threshold and 16 MiB, with
// the uncertainty), the runs in a table, two of them compared figure by figure, and the schema
// outliers of shape run by run. The history is read off the UI thread.
class TrendsDialog : public QDialog
{
    Q_OBJECT
public:
    struct Data
    {
        std::vector<HistoryRun> runs;
        std::map<qint64, std::vector<HistoryPath>> paths;
        std::map<qint64, std::vector<HistoryShapeFlag>> shape;
        SourceForecast forecast;
        QString error;
    };

    TrendsDialog(const SourceRef &source, std::uint64_t sizeThreshold, QWidget *parent = nullptr);

    void reload();
    // Compares the runs on rows `a` and `b` of the table (older first).
    void compare(int a, int b);

    const Data &data() const { return m_data; }
    TrendsChart *sizesChart() const { return m_sizes; }
    TrendsChart *arraysChart() const { return m_arrays; }
    QTableWidget *runsTable() const { return m_runs; }
    QTableWidget *comparison() const { return m_comparison; }
    ShapeTrendsTable *shapeTable() const { return m_shape; }
    QLabel *forecastLabel() const { return m_forecast; }

signals:
    void loaded(bool ok);

private:
    void showData(const Data &data);
    void showCharts();
    void showRuns();
    void showForecast();

    SourceRef m_source;
    std::uint64_t m_threshold;
    QLabel *m_title;
    QLabel *m_forecast;
    TrendsChart *m_sizes;
    TrendsChart *m_arrays;
    QTableWidget *m_runs;
    QPushButton *m_compare;
    QTableWidget *m_comparison;
    ShapeTrendsTable *m_shape;
    LatestJob *m_job;
    Data m_data;
};

} // namespace oe
