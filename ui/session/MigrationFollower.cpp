#include "session/MigrationFollower.h"

#include "jobs/MigrationRunner.h"
#include "wizard/MigrationWizard.h"
#include "workspace/SourceState.h"
#include "workspace/Workspace.h"

namespace oe {

MigrationFollower::MigrationFollower(Workspace *workspace, QObject *parent)
    : QObject(parent), m_workspace(workspace)
{
}

void MigrationFollower::follow(MigrationRunner *runner)
{
    connect(runner, &MigrationRunner::targetChanged, this, &MigrationFollower::written);
    emit followed(runner);
}

void MigrationFollower::setWizard(MigrationWizard *wizard)
{
    m_wizard = wizard;
    follow(wizard->runner());
}

void MigrationFollower::written(const SourceRef &target, const SplitConfig &config)
{
    emit catalogChanged(target.connectionName);
    SourceState *state = m_workspace->stateOf(target);
    if (state->hasResult())
        state->setLayoutNames(config);
    emit collectionWritten(target); // with the names the split used
    if (!state->hasResult())
        return;
    const AnalysisRequest request = state->analysis().request;
    const auto reanalyse = [this, request] {
        emit reanalysing(request.source.displayName());
        m_workspace->enqueue(request, Workspace::Previous::KeptUntilComplete);
    };
    if (m_wizard && m_wizard->runner()->target().key() == target.key()) {
        if (!m_wizard->property("reanalyseOnClose").toBool()) {
            m_wizard->setProperty("reanalyseOnClose", true);
            connect(m_wizard, &QDialog::finished, this, reanalyse, Qt::SingleShotConnection);
        }
        return;
    }
    reanalyse();
}

} // namespace oe
