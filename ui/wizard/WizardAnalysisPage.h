#pragma once

#include "wizard/WizardRemedy.h"

#include <QWizardPage>

#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace oe {

class MigrationWizard;

// 2. Analysis: the current one reused (or a full scan run now), and the array fields ranked by
// what their outliers cost: the bytes a split at the recommended keep would move and the
// documents over half of 16 MiB. Choosing a row chooses the field. Below, the other outliers
// with a remedy (big values, keys used as data, mixed types): choosing one leads to its
// remedy instead of the split.
class WizardAnalysisPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardAnalysisPage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    int nextId() const override;
    QTableWidget *table() const { return m_table; }
    QTableWidget *others() const { return m_others; }

private:
    void fill();
    void showBytesMoved();
    void runFullScan();
    void fillOthers();
    void chooseArray();
    void chooseOther();

    MigrationWizard *m_wizard;
    QLabel *m_summary;
    QTableWidget *m_table;
    QTableWidget *m_others;
    QLabel *m_othersTitle;
    QPushButton *m_rescan;
    bool m_filling = false;
    std::vector<WizardRemedy> m_candidates; // the other outliers' rows
    int m_remedyRow = -1;
    bool m_scanning = false; // a full scan asked of the workspace, not back yet
};

} // namespace oe
