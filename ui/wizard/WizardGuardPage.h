#pragma once

#include "guard/GuardPlan.h"

#include <QWizardPage>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace oe {

class LatestJob;
class MigrationWizard;

// 9. Guard: keep it fixed. The validator that holds the primary array at KEEP (core's
// GuardSession, as `outlier-explorer-cli guard`): the exact collMod and the documents already
// over it are shown before anything is applied; Apply with warn first (the server logs
// violations) or error (it refuses them); Remove puts the previous validator back. Optional:
// Next goes on without it. A dump gets the command to run once it is restored.
class WizardGuardPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardGuardPage(MigrationWizard *wizard);
    void initializePage() override;

    QComboBox *actionBox() const { return m_action; }
    QPlainTextEdit *commandView() const { return m_command; }
    QLabel *status() const { return m_status; }
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *removeButton() const { return m_remove; }
    const GuardPlan &plan() const { return m_plan; }

    void apply();
    void remove();

signals:
    void planned(bool ok);
    void finished(const oe::GuardOutcome &outcome);

private:
    void replan();
    void showPlan(const GuardPlan &plan);
    void showOutcome(const GuardOutcome &outcome);
    GuardAction action() const;
    QString cliCommand() const;

    MigrationWizard *m_wizard;
    QLabel *m_intro;
    QComboBox *m_action;
    QPlainTextEdit *m_command;
    QLabel *m_status;
    QPushButton *m_apply;
    QPushButton *m_remove;
    LatestJob *m_job;
    GuardPlan m_plan;
};

} // namespace oe
