#pragma once

#include "migration/MigrationRun.h"
#include "mongo/ConnectionSettings.h"
#include "remedy/RewriteReport.h"
#include "remedy/RewriteRun.h"
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

// The migrations one connection remembers: every split in its migration journals (when,
// collection, field, keep, state, counts), then every journaled run of every remedy in its
// rewrite journals (the cure in the Keep / cure column); for the selected one: verify, resume
// (the journal finishes what was pending, then the rest) or roll back. Everything runs off the
// UI thread.
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
    // The splits (rows 0 .. runs().size() - 1), then the rewrites (the rows after them).
    const MigrationRuns &runs() const { return m_runs; }
    const RewriteRuns &rewrites() const { return m_rewrites; }
    QTableWidget *table() const { return m_table; }
    QLabel *status() const { return m_status; }
    // Runs the action on row `row` (as its button does; rollback without asking).
    void verify(int row);
    void resume(int row);
    void rollback(int row, bool ask = true);

signals:
    void refreshed(bool ok);
    void actionFinished(const oe::MigrationOutcome &outcome);
    void rewriteFinished(const oe::RewriteStep &step);

private:
    void showRuns(const MigrationRuns &runs, const RewriteRuns &rewrites, const SourceError &error);
    void showRewrite(int row, const RewriteRun &run);
    const RewriteRun *rewriteAt(int row) const;
    QString keyOf(int row) const; // the run on a row, whichever row it is on
    void startRewrite(const RewriteRun &run, int step);
    void rewriteDone(int step, const RewriteStep &result);
    void start(int row, int step);
    void finished(const MigrationOutcome &outcome);
    int selectedRow() const;
    void updateButtons();

    QString m_name;
    ConnectionSettings m_settings;
    MigrationRuns m_runs;
    RewriteRuns m_rewrites;
    QTableWidget *m_table;
    QLabel *m_status;
    QPushButton *m_verify, *m_resume, *m_rollback, *m_refresh;
    LatestJob *m_listJob;
    LatestJob *m_rewriteJob; // a rewrite's verify, resume or rollback
    bool m_rewriting = false;
    MigrationRunner *m_runner;
    QString m_lastAction;         // what the last verify/resume/rollback said
    QString m_working;            // the run a step works on, for the status line
    QString m_wanted;             // showRun()'s database.collection, until it is listed
    QElapsedTimer m_sinceRefresh; // the journals' last reading while a step runs
};

} // namespace oe
