#pragma once

#include "explore/AnalysisRequest.h"

#include <QVariantMap>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace oe {

struct AnalysisResult;

// How to analyse: sample N, the first N or a full scan; a filter (validated extended JSON,
// live collections only); a server-side time limit; for a collection's full scan, how many
// `_id` ranges are read at once (resumable: Run continues a cancelled one); the outlier rule (the
// CLI's methods and presets); where sizes are measured (the CLI's --measure; live collections),
// and after a run, where they were; Run and Cancel.
class AnalysisOptionsBar : public QWidget
{
    Q_OBJECT
public:
    explicit AnalysisOptionsBar(QWidget *parent = nullptr);

    // The request for `source` with the options as they stand.
    AnalysisRequest request(const SourceRef &source) const;
    QString problem() const; // empty when Run may start
    void setSource(const SourceRef &source);
    void setMode(AnalysisOptions::Mode mode);
    void setRunning(bool running);
    // Where the shown analysis measured (its profile's measuredOnServer and "measured …" note),
    // whatever was chosen; null: no analysis shown, nothing said.
    void showMeasured(const AnalysisResult *result);
    // The options as they stand (mode, count, filter, time limit, ranges, rule, measure), to keep
    // between sessions; restore() takes back what it can (an unknown rule or mode is skipped).
    QVariantMap snapshot() const;
    void restore(const QVariantMap &snapshot);

    QComboBox *modeBox() const { return m_mode; }
    QSpinBox *countBox() const { return m_count; }
    QSpinBox *parallelBox() const { return m_parallel; }
    QLineEdit *filterEdit() const { return m_filter; }
    QComboBox *ruleBox() const { return m_rule; }
    QComboBox *measureBox() const { return m_measure; }
    QLabel *measuredLabel() const { return m_measured; }
    QPushButton *runButton() const { return m_run; }
    QPushButton *cancelButton() const { return m_cancel; }

signals:
    void runRequested();
    void cancelRequested();

private:
    void update();

    QComboBox *m_mode;
    QSpinBox *m_count;
    QLineEdit *m_filter;
    QSpinBox *m_timeLimit;
    QSpinBox *m_parallel; // full scans of a collection: _id ranges read at once
    QComboBox *m_rule;    // the detection method (and preset)
    QLabel *m_measureLabel;
    QComboBox *m_measure; // MeasureMode: on the server where it can, there, or here
    QLabel *m_measured;   // where the shown analysis measured
    QPushButton *m_run;
    QPushButton *m_cancel;
    QLabel *m_problem;
    SourceRef m_source;
    bool m_running = false;
};

} // namespace oe
