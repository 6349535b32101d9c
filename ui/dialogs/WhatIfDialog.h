#pragma once

#include "mongo/ConnectionSettings.h"
#include "whatif/WhatIfRow.h"

#include <QDialog>

#include <atomic>
#include <memory>
#include <vector>

class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace oe {

class SourceState;

class LatestJob;

// Analysis → What if… on a connection: the what-if benchmark (WhatIfBenchmark, the one
// `whatif` runs) on a worker, each size's row in a table and on a chart (milliseconds per
// append, unbounded against the split layout) as it is measured; Stop ends it (the scratch
// database is dropped either way); Export CSV writes whatif.csv's columns.
class WhatIfDialog : public QDialog
{
    Q_OBJECT
public:
    WhatIfDialog(const QString &connection, ConnectionSettings settings, QWidget *parent = nullptr);
    ~WhatIfDialog() override;

    void start();
    void stop();
    bool exportCsv(const QString &file = {});
    QLineEdit *sizesEdit() const { return m_sizes; }
    QSpinBox *opsBox() const { return m_ops; }
    QSpinBox *keepBox() const { return m_keep; }
    QSpinBox *pageSizeBox() const { return m_pageSize; }
    QSpinBox *elementBytesBox() const { return m_elementBytes; }
    // The layout to time: the split's keep and page size, and the bytes of one element (the
    // analysed array's mean, say).
    void setLayout(int keep, int pageSize, int elementBytes);
    // The layout being considered on `state`: its keep and page size, its array's element size.
    void takeLayoutOf(const SourceState &state);
    QTableWidget *table() const { return m_table; }
    QCustomPlot *chart() const { return m_chart; }
    QLabel *status() const { return m_status; }
    const std::vector<WhatIfRow> &rows() const { return m_rows; }

signals:
    void finished(bool ok, const QString &message);

private:
    void addRow(const WhatIfRow &row);
    void done(bool ok, const QString &message);

    ConnectionSettings m_settings;
    QLineEdit *m_sizes;
    QSpinBox *m_ops;
    QSpinBox *m_keep;
    QSpinBox *m_pageSize;
    QSpinBox *m_elementBytes;
    QPushButton *m_run;
    QPushButton *m_stop;
    QPushButton *m_export;
    QTableWidget *m_table;
    QCustomPlot *m_chart;
    QLabel *m_status;
    LatestJob *m_job;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::vector<WhatIfRow> m_rows;
};

} // namespace oe
