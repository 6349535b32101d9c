#pragma once

#include <QWizardPage>

class QLabel;
class QPlainTextEdit;

namespace oe {

class LatestJob;
class MigrationWizard;

// 9. Finish: the CSV reports and the migration log exported, and what to change in the
// application: the read and write paths for the chosen names.
class WizardFinishPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardFinishPage(MigrationWizard *wizard);
    void initializePage() override;
    // Scripted runs pass the destination; otherwise a dialog asks.
    void exportReports(const QString &directory = {});
    void saveLog(const QString &file = {});
    QPlainTextEdit *codeView() const { return m_code; }
    QLabel *status() const { return m_status; }

signals:
    void exported(bool ok, const QString &message);

private:
    MigrationWizard *m_wizard;
    QLabel *m_summary;
    QPlainTextEdit *m_code;
    QLabel *m_status;
    LatestJob *m_job;
};

} // namespace oe
