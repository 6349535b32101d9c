#include "WizardDriver.h"

#include "MigrationRunner.h"
#include "MigrationWizard.h"

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

void WizardDriver::step()
{
    if (!m_wizard) {
        m_poll.stop();
        emit failed(QStringLiteral("the wizard was closed"));
        return;
    }
    const int id = m_wizard->currentId();
    if (id == m_target) {
        m_poll.stop();
        m_stuck.stop();
        emit reached();
        return;
    }
    if (id == MigrationWizard::SafetyPageId)
        m_wizard->confirmForScript();
    QWizardPage *page = m_wizard->currentPage();
    if (!page || !page->isComplete() || m_wizard->runner()->isRunning())
        return;
    m_wizard->next();
    m_stuck.start(); // each page has its own allowance
}

} // namespace oe
