#pragma once

#include "guard/GuardPlan.h"

#include <QWizardPage>

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace oe {

class LatestJob;
class MigrationWizard;

// 9. Guard: keep it fixed. The validator that holds the primary array at KEEP (core's
// GuardSession, as `outlier-explorer-cli guard`): the exact collMod and the documents already
// over it are shown before anything is applied, with the level and action on the server now and
// with the guard (never below the collection's own: warn on a validator that errors is refused
// with Use error offered; a strict collection with documents still over the guard waits for the
// user to tick Strict). Apply with warn first (the server logs violations) or error (it refuses
// them); Remove takes the guard's part out again. Optional: Next goes on without it. A dump gets
// the command to run once it is restored.
class WizardGuardPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardGuardPage(MigrationWizard *wizard);
    void initializePage() override;

    QComboBox *actionBox() const { return m_action; }
    QCheckBox *strictBox() const { return m_strict; }
    QLabel *settingsView() const { return m_settings; }
    QPushButton *useErrorButton() const { return m_useError; }
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
    GuardRequest request() const;
    void showSettings(const GuardPlan &plan);
    QString cliCommand() const;

    MigrationWizard *m_wizard;
    QLabel *m_intro;
    QComboBox *m_action;
    QCheckBox *m_strict;
    QPushButton *m_useError;
    QLabel *m_settings;
    QPlainTextEdit *m_command;
    QLabel *m_status;
    QPushButton *m_apply;
    QPushButton *m_remove;
    LatestJob *m_job;
    GuardPlan m_plan;
    bool m_forceRemove = false; // the validator changed since: the user was shown both
};

} // namespace oe
