#include "wizard/MigrationWizard.h"

#include "jobs/MigrationRunner.h"
#include "wizard/WizardAnalysisPage.h"
#include "wizard/WizardApplyPage.h"
#include "wizard/WizardFinishPage.h"
#include "wizard/WizardGuardPage.h"
#include "wizard/WizardLayoutPage.h"
#include "wizard/WizardPreviewPage.h"
#include "wizard/WizardRemedyPage.h"
#include "wizard/WizardSafetyPage.h"
#include "wizard/WizardSourcePage.h"
#include "wizard/WizardThresholdPage.h"
#include "wizard/WizardVerifyPage.h"
#include "workspace/SourceState.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace oe {

QStringList MigrationWizard::pageNames()
{
    return {QStringLiteral("source"), QStringLiteral("analysis"), QStringLiteral("threshold"),
            QStringLiteral("layout"), QStringLiteral("preview"),  QStringLiteral("safety"),
            QStringLiteral("apply"),  QStringLiteral("verify"),   QStringLiteral("guard"),
            QStringLiteral("finish"), QStringLiteral("remedy")};
}

int MigrationWizard::pageIdOf(const QString &name)
{
    return int(pageNames().indexOf(name));
}

MigrationWizard::MigrationWizard(Workspace *workspace, const SourceRef &shown, QWidget *parent)
    : QWizard(parent), m_workspace(workspace), m_state(workspace->stateOf(shown)),
      m_runner(new MigrationRunner(this))
{
    setWindowTitle(tr("Migrate to the outlier pattern"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::NoBackButtonOnLastPage);
    setOption(QWizard::NoCancelButtonOnLastPage);
    resize(980, 720);
    SplitConfig layout;
    layout.collection = source().collectionName();
    m_layout = layout.withDefaults();
    setPage(SourcePageId, new WizardSourcePage(this));
    setPage(AnalysisPageId, new WizardAnalysisPage(this));
    setPage(ThresholdPageId, new WizardThresholdPage(this));
    setPage(LayoutPageId, new WizardLayoutPage(this));
    setPage(PreviewPageId, new WizardPreviewPage(this));
    setPage(SafetyPageId, new WizardSafetyPage(this));
    setPage(ApplyPageId, new WizardApplyPage(this));
    setPage(VerifyPageId, new WizardVerifyPage(this));
    setPage(GuardPageId, new WizardGuardPage(this));
    setPage(FinishPageId, new WizardFinishPage(this));
    setPage(RemedyPageId, new WizardRemedyPage(this));
    setStartId(SourcePageId);
    // The remedy page is a last page too, but one chosen on the analysis page: Back stays.
    connect(this, &QWizard::currentIdChanged, this,
            [this](int id) { setOption(QWizard::NoBackButtonOnLastPage, id != RemedyPageId); });
    appendLog(tr("Migration of %1, opened %2")
                  .arg(source().displayName(), QDateTime::currentDateTime().toString(Qt::ISODate)));
}

MigrationWizard::~MigrationWizard() = default;

// Closing (the window's X, Escape, Cancel) while a step writes to the server: never silently.
// The user chooses between stopping it after its current batch, the wizard closing once it
// has, and going on watching it.
void MigrationWizard::reject()
{
    if (!m_runner->isRunning() || m_closing) {
        if (!m_runner->isRunning())
            QWizard::reject();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("A migration step is running"),
                                tr("The migration is still writing to %1. Closing the wizard "
                                   "stops it after its current batch; the journal keeps what "
                                   "was done, and Migrations (or this wizard) resumes it.")
                                    .arg(source().displayName()),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("closeWhileRunning"));
    QPushButton *stop =
        box->addButton(tr("&Stop after this batch and close"), QMessageBox::DestructiveRole);
    stop->setObjectName(QStringLiteral("stopAndClose"));
    box->setDefaultButton(box->addButton(tr("&Keep watching"), QMessageBox::RejectRole));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, stop] {
        if (box->clickedButton() != stop)
            return;
        m_closing = true;
        m_runner->cancel();
        appendLog(tr("Closed by the user while running: stopping after the current batch"));
        connect(
            m_runner, &MigrationRunner::finished, this, [this] { QWizard::reject(); },
            Qt::SingleShotConnection);
    });
    box->open();
}

SourceRef MigrationWizard::source() const
{
    return m_state ? m_state->analysis().request.source : SourceRef();
}

void MigrationWizard::setLayout(const SplitConfig &layout)
{
    m_layout = layout;
}

SplitConfig MigrationWizard::config() const
{
    SplitConfig c = m_layout;
    c.collection = source().collectionName();
    if (m_state) {
        c.field = m_state->path();
        c.keep = std::int64_t(m_state->keep());
        c.pageSize = std::int64_t(m_state->pageSize());
    }
    if (c.itemsField.isEmpty())
        c.itemsField = c.pathSegments().last();
    return c.withDefaults();
}

void MigrationWizard::setOutDir(const QString &dir)
{
    if (dir == m_outDir)
        return;
    m_outDir = dir;
    emit outDirChanged(dir);
}

QString MigrationWizard::rollbackDir() const
{
    return m_outDir.isEmpty() ? QString() : m_outDir + QStringLiteral("_rollback");
}

const MigrationOutcome &MigrationWizard::outcome(MigrationOutcome::Step step) const
{
    return m_outcomes[int(step)];
}

void MigrationWizard::recordOutcome(const MigrationOutcome &outcome)
{
    m_outcomes[int(outcome.step)] = outcome;
}

void MigrationWizard::appendLog(const QString &line)
{
    m_log << QStringLiteral("[%1] %2").arg(QTime::currentTime().toString(Qt::ISODate), line);
}

void MigrationWizard::confirmForScript()
{
    emit confirmRequested();
}

} // namespace oe
