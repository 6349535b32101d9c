#pragma once

#include "analysis/SourceRef.h"
#include "jobs/MigrationOutcome.h"
#include "migration/MigrationOptions.h"
#include "split/SplitConfig.h"
#include "wizard/WizardRemedy.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"

#include <QPointer>
#include <QStringList>
#include <QWizard>

namespace oe {

class MigrationRunner;

// The guided migration, from "this collection is slow" to an applied, verified, reversible
// split: source, analysis, threshold, layout, preview, safety, apply, verify, guard, finish.
// An outlier other than an array chosen on the analysis page goes to its remedy instead. It
// starts from the source's state (its analysis, path, keep and page size, which the threshold page
// edits like the Arrays tab) and drives the core MigrationSession through a MigrationRunner,
// so the wizard and `outlier-explorer-cli split` apply the very same migration.
class MigrationWizard : public QWizard
{
    Q_OBJECT
public:
    enum PageId
    {
        SourcePageId,
        AnalysisPageId,
        ThresholdPageId,
        LayoutPageId,
        PreviewPageId,
        SafetyPageId,
        ApplyPageId,
        VerifyPageId,
        GuardPageId,
        FinishPageId,
        RemedyPageId, // another outlier's cure, instead of the split's pages
    };
    // "source", "analysis", …, "finish": the names `--wizard PAGE` takes.
    static QStringList pageNames();
    static int pageIdOf(const QString &name); // -1 if unknown

    // The wizard for `source`, an open source of `workspace` (its state is where the wizard
    // reads the analysis and writes the user's choices; a full scan runs through it).
    MigrationWizard(Workspace *workspace, const SourceRef &source, QWidget *parent = nullptr);
    ~MigrationWizard() override;

    SourceState *state() const { return m_state; }
    Workspace *workspace() const { return m_workspace; }
    SourceRef source() const;
    bool isLive() const { return source().kind == SourceRef::Kind::Collection; }
    MigrationRunner *runner() const { return m_runner; }

    // The layout names chosen on the layout page; config() adds the state's field, keep and
    // page size: the split every later page shows and applies.
    void setLayout(const SplitConfig &layout);
    SplitConfig config() const;
    QString outDir() const { return m_outDir; } // offline: where the split dump goes
    void setOutDir(const QString &dir);
    QString rollbackDir() const; // offline: where a rollback writes the reassembled dump
    MigrationOptions options() const { return m_options; }
    // What the safety page chose: the backup collection, and the pace of a live split.
    void setBackupCollection(const QString &name) { m_options.backupCollection = name; }
    void setPace(std::size_t batch, double maxDocsPerSecond)
    {
        m_options.batch = batch;
        m_options.maxDocsPerSecond = maxDocsPerSecond;
    }
    bool dryRun() const { return m_dryRun; }
    void setDryRun(bool dryRun) { m_dryRun = dryRun; }

    // The outcome of the last step of each kind (Prepare on the preview page, and so on).
    const MigrationOutcome &outcome(MigrationOutcome::Step step) const;
    void recordOutcome(const MigrationOutcome &outcome);
    // Every step with its figures, for the finish page's "Save migration log".
    QString log() const { return m_log.join(QLatin1Char('\n')); }
    void appendLog(const QString &line);

    // The other outlier chosen on the analysis page (none: an array is split).
    const std::optional<WizardRemedy> &remedy() const { return m_remedy; }
    void setRemedy(std::optional<WizardRemedy> remedy) { m_remedy = std::move(remedy); }

    // Scripted runs (screenshots, tests): what a user would type to confirm the apply.
    void confirmForScript();

    // While a step runs: asks first (stop after the batch and close, or keep watching).
    void reject() override;

signals:
    void confirmRequested();
    // The remedy page's Apply… and Guard the type…: the window that owns the wizard opens the
    // Rewrite and type guard dialogs (the wizard's room does not reach the dialogs').
    void rewriteRequested(const oe::RewriteConfig &config);
    void typeGuardRequested(const oe::GuardRule &rule);
    void outDirChanged(const QString &dir);

private:
    QPointer<Workspace> m_workspace;
    QPointer<SourceState> m_state;
    MigrationRunner *m_runner;
    SplitConfig m_layout;
    QString m_outDir;
    MigrationOptions m_options;
    bool m_dryRun = false;
    bool m_closing = false;         // stopping, to close once the running step has ended
    MigrationOutcome m_outcomes[5]; // one per MigrationOutcome::Step
    QStringList m_log;
    std::optional<WizardRemedy> m_remedy;
};

} // namespace oe
