#pragma once

#include <QWizardPage>

class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace oe {

class LatestJob;
class ReportExporter;
class MigrationWizard;

// 10. Finish: the CSV reports and the migration log exported, and what to change in the
// application: the read and write paths for the chosen names, in the language chosen, with its
// official driver (the code `outlier-explorer-cli codegen` writes and the tests run).
class WizardFinishPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardFinishPage(MigrationWizard *wizard);
    void initializePage() override;
    int nextId() const override { return -1; } // the remedy page comes after it, not next
    // Scripted runs pass the destination; otherwise a dialog asks.
    void exportReports(const QString &directory = {});
    void saveLog(const QString &file = {});
    void saveCode(const QString &file = {});
    // The shareable report (HTML or PDF) with the layout, the migration log and the verdict.
    void exportReport(const QString &file = {});
    QPlainTextEdit *codeView() const { return m_code; }
    QComboBox *languageBox() const { return m_language; }
    QLabel *status() const { return m_status; }

signals:
    void exported(bool ok, const QString &message);
    void reportExported(bool ok, const QString &message);

private:
    void showCode();
    // Writes `bytes` to `file` whole or not at all; the status line says which.
    void saveText(const QString &file, const QByteArray &bytes, const QString &what);

    MigrationWizard *m_wizard;
    QLabel *m_summary;
    QComboBox *m_language;
    QPlainTextEdit *m_code;
    QLabel *m_status;
    LatestJob *m_job;
    ReportExporter *m_reporter;
};

} // namespace oe
