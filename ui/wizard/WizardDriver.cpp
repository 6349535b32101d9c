#include "wizard/WizardDriver.h"

#include "jobs/MigrationRunner.h"
#include "wizard/MigrationWizard.h"
#include "wizard/WizardAnalysisPage.h"
#include "wizard/WizardPreviewPage.h"

#include <QTableWidget>

namespace oe {

WizardDriver::WizardDriver(MigrationWizard *wizard, int targetId, QObject *parent)
    : QObject(parent), m_wizard(wizard), m_target(targetId)
{
    m_poll.setInterval(50);
    connect(&m_poll, &QTimer::timeout, this, &WizardDriver::step);
    m_stuck.setSingleShot(true);
    m_stuck.setInterval(kStuckMs);
    connect(&m_stuck, &QTimer::timeout, this, [this] {
        m_poll.stop();
        const int id = m_wizard ? m_wizard->currentId() : -1;
        emit failed(QStringLiteral("the wizard's %1 page did not become complete")
                        .arg(MigrationWizard::pageNames().value(id)));
    });
    m_poll.start();
    m_stuck.start();
}

// The preview still filling in: its plan or its example document on the way. (Other pages
// are reached at once: a test may stop an apply as soon as it shows.)
bool WizardDriver::settling() const
{
    const auto *preview = qobject_cast<const WizardPreviewPage *>(m_wizard->currentPage());
    return preview && (preview->exampleLoading() || m_wizard->runner()->isRunning());
}

void WizardDriver::step()
{
    if (!m_wizard) {
        m_poll.stop();
        emit failed(QStringLiteral("the wizard was closed"));
        return;
    }
    const int id = m_wizard->currentId();
    if (id == m_target && !settling()) {
        m_poll.stop();
        m_stuck.stop();
        emit reached();
        return;
    }
    if (id == m_target)
        return;
    if (id == MigrationWizard::SafetyPageId)
        m_wizard->confirmForScript();
    // `--wizard remedy`: the first of the other outliers.
    auto *analysis = qobject_cast<WizardAnalysisPage *>(m_wizard->currentPage());
    if (analysis && m_target == MigrationWizard::RemedyPageId && !m_wizard->remedy() &&
        analysis->others()->rowCount() > 0)
        analysis->others()->selectRow(0);
    QWizardPage *page = m_wizard->currentPage();
    if (!page || !page->isComplete() || m_wizard->runner()->isRunning())
        return;
    m_wizard->next();
    m_stuck.start(); // each page has its own allowance
}

} // namespace oe
