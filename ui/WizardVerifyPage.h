#pragma once

#include <QWizardPage>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace oe {

class MigrationWizard;
struct MigrationOutcome;

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

private:
    void finished(const MigrationOutcome &outcome);
    void showVerify(const MigrationOutcome &outcome);
    void showRollback(const MigrationOutcome &outcome);
    void startRollback();

    MigrationWizard *m_wizard;
    QLabel *m_summary;
    QPlainTextEdit *m_details;
    QCheckBox *m_confirm;
    QPushButton *m_rollback;
    QLabel *m_rollbackStatus;
    bool m_busy = false;
};

} // namespace oe
