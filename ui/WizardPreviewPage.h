#pragma once

#include <QWizardPage>

class QLabel;

namespace oe {

class ChartPanel;
class MigrationWizard;
struct MigrationOutcome;

// 5. Preview: the pre-flight checks and the plan over the whole target (the session's own,
// exactly what apply will do): totals, the largest primary after, and the predicted size
// distribution before and after.
class WizardPreviewPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardPreviewPage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    QLabel *summary() const { return m_summary; }

private:
    void finished(const MigrationOutcome &outcome);

    MigrationWizard *m_wizard;
    QLabel *m_summary;
    ChartPanel *m_panel;
    bool m_ready = false;
};

} // namespace oe
