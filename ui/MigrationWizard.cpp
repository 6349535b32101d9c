#include "MigrationWizard.h"

#include "MigrationRunner.h"
#include "SourceState.h"
#include "WizardAnalysisPage.h"
#include "WizardApplyPage.h"
#include "WizardFinishPage.h"
#include "WizardLayoutPage.h"
#include "WizardPreviewPage.h"
#include "WizardSafetyPage.h"
#include "WizardSourcePage.h"
#include "WizardThresholdPage.h"
#include "WizardVerifyPage.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

namespace oe {

QStringList MigrationWizard::pageNames()
{
    return {QStringLiteral("source"), QStringLiteral("analysis"), QStringLiteral("threshold"),
            QStringLiteral("layout"), QStringLiteral("preview"),  QStringLiteral("safety"),
            QStringLiteral("apply"),  QStringLiteral("verify"),   QStringLiteral("finish")};
}

int MigrationWizard::pageIdOf(const QString &name)
{
    return int(pageNames().indexOf(name));
}

MigrationWizard::MigrationWizard(SourceState *state, QWidget *parent)
    : QWizard(parent), m_state(state), m_runner(new MigrationRunner(this))
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
    setPage(FinishPageId, new WizardFinishPage(this));
    setStartId(SourcePageId);
    appendLog(tr("Migration of %1, opened %2")
                  .arg(source().displayName(), QDateTime::currentDateTime().toString(Qt::ISODate)));
}

MigrationWizard::~MigrationWizard() = default;

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
