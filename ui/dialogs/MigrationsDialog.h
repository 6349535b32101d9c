#pragma once

#include "migration/MigrationRun.h"
#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"

#include <QDialog>
#include <QElapsedTimer>

class QLabel;
class QPushButton;
class QTableWidget;

namespace oe {

class LatestJob;
class MigrationRunner;
struct MigrationOutcome;

// The migrations one connection remembers (every run in its journals: when, collection, field,
// keep, state, counts), and for the selected one: verify, resume (split again: the journal
// finishes what was pending) or roll back. Everything runs off the UI thread.
class MigrationsDialog : public QDialog
{
    Q_OBJECT
public:
    MigrationRunner *runner() const { return m_runner; }
    MigrationsDialog(const QString &connectionName, const ConnectionSettings &settings,
                     QWidget *parent = nullptr);
    void refresh();
    // Selects the run on database.collection once the journals are read (the offer's Open).
    void showRun(const QString &database, const QString &collection);
    const MigrationRuns &runs() const { return m_runs; }
    QTableWidget *table() const { return m_table; }
    QLabel *status() const { return m_status; }
    // Runs the action on row `row` (as its button does; rollback without asking).
    void verify(int row);
    void resume(int row);
    void rollback(int row, bool ask = true);

signals:
    void refreshed(bool ok);
    void actionFinished(const oe::MigrationOutcome &outcome);

private:
    void showRuns(const MigrationRuns &runs, const SourceError &error);
    void start(int row, int step);
    void finished(const MigrationOutcome &outcome);
    int selectedRow() const;
    void updateButtons();

    QString m_name;
    ConnectionSettings m_settings;
    MigrationRuns m_runs;
    QTableWidget *m_table;
    QLabel *m_status;
    QPushButton *m_verify, *m_resume, *m_rollback, *m_refresh;
    LatestJob *m_listJob;
    MigrationRunner *m_runner;
    QString m_lastAction;         // what the last verify/resume/rollback said
    QString m_working;            // the run a step works on, for the status line
    QString m_wanted;             // showRun()'s database.collection, until it is listed
    QElapsedTimer m_sinceRefresh; // the journals' last reading while a step runs
};

} // namespace oe
