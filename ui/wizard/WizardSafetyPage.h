#pragma once

#include <QWizardPage>

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace oe {

class MigrationWizard;

// 6. Safety: what the pre-flight found (server, FerretDB's non-atomic updates, a resumed run),
// the disk the split will take and the index it creates, a backup collection, the pace of a
// live split (documents per batch, a throttle in documents per second, as the CLI's --batch and
// --max-docs-per-sec), a dry run, and the collection's name typed to confirm.
class WizardSafetyPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardSafetyPage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    bool validatePage() override;
    QLineEdit *confirmEdit() const { return m_confirm; }
    QCheckBox *dryRunBox() const { return m_dryRun; }
    QCheckBox *backupBox() const { return m_backup; }
    QSpinBox *batchBox() const { return m_batch; }
    QSpinBox *throttleBox() const { return m_throttle; }
    QLabel *findings() const { return m_findings; }

private:
    QString expectedConfirmation() const;

    MigrationWizard *m_wizard;
    QLabel *m_findings;
    QCheckBox *m_backup;
    QLineEdit *m_backupName;
    QWidget *m_pace;
    QSpinBox *m_batch;
    QSpinBox *m_throttle;
    QCheckBox *m_dryRun;
    QLabel *m_confirmLabel;
    QLineEdit *m_confirm;
};

} // namespace oe
