#pragma once

#include <QWizardPage>

class QLabel;
class QLineEdit;

namespace oe {

class MigrationWizard;

// 1. Source: the live collection the split rewrites in place (journaled, resumable), or the
// dump file it leaves untouched while writing a new dump folder.
class WizardSourcePage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardSourcePage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    bool validatePage() override;
    QLineEdit *outDirEdit() const { return m_outDir; }

private:
    void browse();

    MigrationWizard *m_wizard;
    QLabel *m_what;
    QLabel *m_outLabel;
    QLineEdit *m_outDir;
    QWidget *m_browse;
};

} // namespace oe
