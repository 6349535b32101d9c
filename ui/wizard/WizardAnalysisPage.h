#pragma once

#include <QWizardPage>

class QLabel;
class QPushButton;
class QTableWidget;

namespace oe {

class MigrationWizard;

// 2. Analysis: the current one reused (or a full scan run now), and the array fields ranked by
// what their outliers cost: the bytes a split at the recommended keep would move and the
// documents over half of 16 MiB. Choosing a row chooses the field.
class WizardAnalysisPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardAnalysisPage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    QTableWidget *table() const { return m_table; }

private:
    void fill();
    void showBytesMoved();
    void runFullScan();

    MigrationWizard *m_wizard;
    QLabel *m_summary;
    QTableWidget *m_table;
    QPushButton *m_rescan;
    bool m_filling = false;
    bool m_scanning = false; // a full scan asked of the workspace, not back yet
};

} // namespace oe
