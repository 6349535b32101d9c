#include "dialogs/MigrationsDialog.h"

#include "charts/Format.h"
#include "jobs/LatestJob.h"
#include "jobs/MigrationRunner.h"
#include "migration/MigrationHistory.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/RewriteHistory.h"
#include "remedy/RewriteSession.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace oe {

namespace {

using Step = MigrationOutcome::Step;

struct Listing
{
    MigrationRuns runs;
    RewriteRuns rewrites;
    SourceError error;
};

QString timeOf(const QDateTime &updated)
{
    return updated.isValid() ? updated.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                             : QStringLiteral("—"); // a journal an older build wrote keeps no time
}

} // namespace

MigrationsDialog::MigrationsDialog(const QString &connectionName,
                                   const ConnectionSettings &settings, QWidget *parent)
    : QDialog(parent), m_name(connectionName), m_settings(settings),
      m_table(new QTableWidget(this)), m_status(new QLabel(this)),
      m_verify(new QPushButton(tr("&Verify"), this)),
      m_resume(new QPushButton(tr("&Resume"), this)),
      m_rollback(new QPushButton(tr("Roll &back…"), this)),
      m_refresh(new QPushButton(tr("Re&fresh"), this)), m_listJob(new LatestJob(this)),
      m_rewriteJob(new LatestJob(this)), m_runner(new MigrationRunner(this))
{
    setWindowTitle(tr("Migrations on %1").arg(connectionName));
    resize(980, 460);
    m_table->setColumnCount(8);
    m_table->setHorizontalHeaderLabels({tr("Updated"), tr("Collection"), tr("Field"),
                                        tr("Keep / cure"), tr("State"), tr("Split / rewritten"),
                                        tr("Pending"), tr("Restored")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_status->setWordWrap(true);
    m_resume->setToolTip(tr("Run it again as the journal recorded it: documents it left pending "
                            "are finished first, then the rest."));
    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {m_verify, m_resume, m_rollback, m_refresh})
        buttons->addWidget(b);
    buttons->addStretch(1);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_refresh, &QPushButton::clicked, this, &MigrationsDialog::refresh);
    connect(m_verify, &QPushButton::clicked, this, [this] { verify(selectedRow()); });
    connect(m_resume, &QPushButton::clicked, this, [this] { resume(selectedRow()); });
    connect(m_rollback, &QPushButton::clicked, this, [this] { rollback(selectedRow()); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &MigrationsDialog::updateButtons);
    // While a step runs: its figures in the status line, and the journal's counts in the
    // table read again (at most once a second), so the row never shows where the run began.
    connect(m_runner, &MigrationRunner::progressed, this, [this](const MigrationProgress &p) {
        m_lastAction = tr("%1: %2 documents done, %3 elements moved, %4 pages written (%5 s)…")
                           .arg(m_working, Format::count(p.migrated),
                                Format::count(p.elementsMoved), Format::count(p.pagesWritten))
                           .arg(p.seconds, 0, 'f', 1);
        m_status->setText(m_lastAction);
        if (!m_sinceRefresh.isValid() || m_sinceRefresh.elapsed() >= 1000) {
            m_sinceRefresh.start();
            refresh();
        }
    });
    connect(m_runner, &MigrationRunner::finished, this, &MigrationsDialog::finished);
    refresh();
}

void MigrationsDialog::refresh()
{
    if (sender() == m_refresh)
        m_lastAction.clear();
    if (!m_runner->isRunning())
        m_status->setText(tr("Reading the journals…"));
    const ConnectionSettings settings = m_settings;
    m_listJob->start(
        [settings] {
            Listing l;
            if (MigrationHistory::runs(settings, {}, &l.runs, &l.error))
                RewriteHistory::runs(settings, {}, &l.rewrites, &l.error);
            return l;
        },
        [this](const Listing &l) { showRuns(l.runs, l.rewrites, l.error); });
}

void MigrationsDialog::showRun(const QString &database, const QString &collection)
{
    m_wanted = database + QLatin1Char('.') + collection;
}

void MigrationsDialog::showRuns(const MigrationRuns &runs, const RewriteRuns &rewrites,
                                const SourceError &error)
{
    // The run selected before a re-reading stays selected, wherever its row moves (a run the
    // step just wrote is the newest now).
    const QString was = keyOf(selectedRow());
    int selected = -1;
    const auto on = [](const QString &database, const QString &collection) -> QString {
        return database + QLatin1Char('.') + collection;
    };
    // The offer's run: the newest interrupted one there (newest first), a split's or a rewrite's.
    for (int i = 0; !m_wanted.isEmpty() && i < int(runs.size()); ++i)
        if (on(runs[std::size_t(i)].database, runs[std::size_t(i)].config.collection) == m_wanted &&
            runs[std::size_t(i)].interrupted()) {
            selected = i;
            m_wanted.clear();
        }
    for (int i = 0; !m_wanted.isEmpty() && i < int(rewrites.size()); ++i)
        if (on(rewrites[std::size_t(i)].database, rewrites[std::size_t(i)].config.collection) ==
                m_wanted &&
            rewrites[std::size_t(i)].interrupted()) {
            selected = int(runs.size()) + i;
            m_wanted.clear();
        }
    m_runs = runs;
    m_rewrites = rewrites;
    const int rows = int(runs.size() + rewrites.size());
    for (int row = 0; selected < 0 && !was.isEmpty() && row < rows; ++row)
        if (keyOf(row) == was)
            selected = row;
    m_table->setRowCount(rows);
    for (int i = 0; i < int(runs.size()); ++i) {
        const MigrationRun &r = runs[std::size_t(i)];
        const QStringList cells{timeOf(r.updated),
                                on(r.database, r.config.collection),
                                r.config.field,
                                Format::count(std::uint64_t(r.config.keep)),
                                journalText(r.state) +
                                    (r.interrupted() ? tr(" (interrupted)") : QString()),
                                Format::count(r.split),
                                Format::count(r.pending),
                                Format::count(r.restored)};
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(i, c, new QTableWidgetItem(cells[c]));
    }
    for (int i = 0; i < int(rewrites.size()); ++i)
        showRewrite(int(runs.size()) + i, rewrites[std::size_t(i)]);
    if (rows > 0)
        m_table->selectRow(selected >= 0 && selected < rows ? selected : 0);
    const QString listing = error.isError()
                                ? tr("Could not read the journals: %1").arg(error.toString())
                            : rows == 0 ? tr("No migration journal on %1.").arg(m_name)
                                        : tr("%n run(s).", nullptr, rows);
    m_status->setText(m_lastAction.isEmpty() ? listing : m_lastAction + QLatin1Char(' ') + listing);
    updateButtons();
    emit refreshed(!error.isError());
}

void MigrationsDialog::showRewrite(int row, const RewriteRun &r)
{
    QString cure = RemedyRegistry::of(r.config.kind).cureName();
    cure.replace(0, 1, cure.at(0).toUpper()); // "store in GridFS" heads a cell
    const QStringList cells{timeOf(r.updated),
                            r.database + QLatin1Char('.') + r.config.collection,
                            r.config.path,
                            cure,
                            journalText(r.state) + (r.interrupted() ? tr(" (interrupted)")
                                                    : r.running     ? tr(" (running)")
                                                                    : QString()),
                            Format::count(r.applied),
                            Format::count(r.pending),
                            Format::count(r.restored)};
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        item->setToolTip(r.config.describe());
        m_table->setItem(row, c, item);
    }
}

QString MigrationsDialog::keyOf(int row) const
{
    if (row >= 0 && row < int(m_runs.size())) {
        const MigrationRun &r = m_runs[std::size_t(row)];
        return QStringList{QStringLiteral("split"), r.database, r.config.collection, r.config.field}
            .join(QChar(0x1f));
    }
    if (const RewriteRun *r = rewriteAt(row))
        return QStringList{QStringLiteral("rewrite"), r->database, r->config.collection,
                           r->config.runId()}
            .join(QChar(0x1f));
    return {};
}

const RewriteRun *MigrationsDialog::rewriteAt(int row) const
{
    const int i = row - int(m_runs.size());
    return i >= 0 && i < int(m_rewrites.size()) ? &m_rewrites[std::size_t(i)] : nullptr;
}

int MigrationsDialog::selectedRow() const
{
    const auto rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void MigrationsDialog::updateButtons()
{
    const bool idle = !m_runner->isRunning() && !m_rewriting;
    const int row = selectedRow();
    bool any = false, rolledBack = false, applying = false;
    if (row >= 0 && row < int(m_runs.size())) {
        any = true;
        rolledBack = m_runs[std::size_t(row)].state == RunState::RolledBack;
        applying = m_runs[std::size_t(row)].state == RunState::Applying;
    } else if (const RewriteRun *r = rewriteAt(row)) {
        any = !r->running; // another client (or a dialog here) writes it now
        rolledBack = r->state == RewriteState::RolledBack;
        applying = r->state == RewriteState::Applying;
    }
    m_verify->setEnabled(idle && any && !rolledBack);
    m_resume->setEnabled(idle && any && applying);
    m_rollback->setEnabled(idle && any && !rolledBack);
    m_refresh->setEnabled(idle);
}

void MigrationsDialog::verify(int row)
{
    start(row, int(Step::Verify));
}

void MigrationsDialog::resume(int row)
{
    start(row, int(Step::Apply));
}

void MigrationsDialog::rollback(int row, bool ask)
{
    // The question waits for the user while the list may be read again: the run is found again
    // by what it is, not by its row, once they answer.
    const QString key = keyOf(row);
    if (key.isEmpty())
        return;
    QString question;
    if (const RewriteRun *r = rewriteAt(row))
        question = tr("Roll back %3 on %1.%2? Every value goes back where it was; a value the "
                      "application wrote since is kept.")
                       .arg(r->database, r->config.collection, r->config.describe());
    else
        question =
            tr("Restore every document of %1.%2 that the split of %3 changed, and delete "
               "its pages?\n\nStop the application's writes to this collection first: an "
               "element written to a page during the rollback may come back out of order "
               "or be lost.")
                .arg(m_runs[std::size_t(row)].database, m_runs[std::size_t(row)].config.collection,
                     m_runs[std::size_t(row)].config.field);
    if (ask && QMessageBox::question(this, tr("Roll back"), question) != QMessageBox::Yes)
        return;
    for (int now = 0; now < int(m_runs.size() + m_rewrites.size()); ++now)
        if (keyOf(now) == key) {
            start(now, int(Step::Rollback));
            return;
        }
}

void MigrationsDialog::start(int row, int step)
{
    if (const RewriteRun *r = rewriteAt(row)) {
        startRewrite(*r, step);
        return;
    }
    if (row < 0 || row >= int(m_runs.size()) || m_runner->isRunning())
        return;
    const MigrationRun &r = m_runs[std::size_t(row)];
    SourceRef target;
    target.kind = SourceRef::Kind::Collection;
    target.connectionName = m_name;
    target.settings = m_settings;
    target.database = r.database;
    target.collection = r.config.collection;
    m_runner->setTarget(target, r.config);
    m_runner->start(Step(step));
    m_working = tr("Working on %1.%2 (%3)").arg(r.database, r.config.collection, r.config.field);
    m_status->setText(m_working + QStringLiteral("…"));
    updateButtons();
}

void MigrationsDialog::finished(const MigrationOutcome &outcome)
{
    QString text;
    if (!outcome.ok)
        text = tr("Stopped: %1").arg(outcome.error.toString());
    else if (outcome.step == Step::Verify)
        text =
            tr("Verified: %1 checked, %2 matching, %3 mismatching.")
                .arg(Format::count(outcome.verify.checked), Format::count(outcome.verify.matching),
                     Format::count(outcome.verify.mismatches));
    else if (outcome.step == Step::Apply)
        text = tr("Resumed and finished: %1 documents split.")
                   .arg(Format::count(outcome.progress.migrated));
    else
        text =
            tr("Rolled back: %1 documents restored.").arg(Format::count(outcome.progress.migrated));
    m_lastAction = text;
    emit actionFinished(outcome);
    refresh();
}

// A rewrite's step, as the Rewrite dialog runs it: the journal's run (its remedy, its fields,
// its names) verified, resumed or rolled back by core's RewriteSession.
void MigrationsDialog::startRewrite(const RewriteRun &run, int step)
{
    if (m_rewriting || m_runner->isRunning())
        return;
    m_rewriting = true;
    const ConnectionSettings settings = m_settings;
    const QString database = run.database;
    const RewriteConfig config = run.config;
    m_working = tr("Working on %1.%2 (%3)").arg(database, config.collection, config.describe());
    m_status->setText(m_working + QStringLiteral("…"));
    updateButtons();
    m_rewriteJob->startWithProgress<RewriteProgress>(
        [settings, database, config, step](const std::atomic<bool> &cancelled, const auto &report) {
            RewriteSession session(settings, database, config);
            if (Step(step) == Step::Verify)
                return session.verify();
            if (Step(step) == Step::Apply)
                return session.apply({}, &cancelled, report);
            return session.rollback({}, &cancelled, report);
        },
        [this, step](const RewriteStep &result) { rewriteDone(step, result); },
        [this](const RewriteProgress &p) {
            m_status->setText(
                tr("%1: %2 documents, %3 rewritten…")
                    .arg(m_working, Format::count(p.examined), Format::count(p.rewritten)));
        });
}

void MigrationsDialog::rewriteDone(int step, const RewriteStep &result)
{
    m_rewriting = false;
    const RewriteProgress &p = result.progress;
    if (!result.ok)
        m_lastAction = tr("Stopped: %1").arg(result.error.toString());
    else if (Step(step) == Step::Verify)
        m_lastAction = result.verify.summary();
    else if (Step(step) == Step::Apply)
        m_lastAction = tr("Resumed and finished: %1 rewritten, %2 left as they are, the "
                          "application's writes won %3 times, %4 deleted meanwhile.")
                           .arg(Format::count(p.rewritten), Format::count(p.cannot),
                                Format::count(p.changedSince), Format::count(p.deleted));
    else
        m_lastAction = tr("Rolled back: %1 restored, the application's value kept %2 times.")
                           .arg(Format::count(p.rewritten), Format::count(p.changedSince));
    emit rewriteFinished(result);
    refresh();
}

} // namespace oe
