#pragma once

#include <QWizardPage>

#include <cstdint>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace oe {

class MigrationWizard;
struct MigrationOutcome;
struct MigrationProgress;

// 8. Verify: every split document against its journaled original (counts, and each mismatch
// with its _id), and Rollback, confirmed, with its own progress: the originals restored.
class WizardVerifyPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardVerifyPage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    QLabel *summary() const { return m_summary; }
    QPlainTextEdit *details() const { return m_details; }
    QCheckBox *rollbackConfirm() const { return m_confirm; }
    QPushButton *rollbackButton() const { return m_rollback; }
    QProgressBar *rollbackBar() const { return m_rollbackBar; }
    QLabel *rollbackStatus() const { return m_rollbackStatus; }
    // After a live rollback: what is left on the server, and the button that removes it.
    QLabel *leftovers() const { return m_leftovers; }
    QPushButton *removeLeftoversButton() const { return m_removeLeftovers; }

private:
    void finished(const MigrationOutcome &outcome);
    void showVerify(const MigrationOutcome &outcome);
    void showRollback(const MigrationOutcome &outcome);
    void startRollback();
    void rollbackProgressed(const MigrationProgress &progress);
    void showLeftovers(const MigrationOutcome &outcome);
    void showRemoved(const MigrationOutcome &outcome);

    MigrationWizard *m_wizard;
    QLabel *m_summary;
    QPlainTextEdit *m_details;
    QCheckBox *m_confirm;
    QPushButton *m_rollback;
    QProgressBar *m_rollbackBar;
    QLabel *m_rollbackStatus;
    QLabel *m_leftovers;
    QPushButton *m_removeLeftovers;
    std::uint64_t m_rollbackTotal = 0; // documents the rollback restores
    bool m_busy = false;
    bool m_rollingBack = false;
    bool m_rolledBack = false; // a rollback finished: nothing left to roll back
};

} // namespace oe
