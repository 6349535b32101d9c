#pragma once

#include <QWizardPage>

class QLabel;

namespace oe {

class ChartPanel;
class MigrationWizard;
class ThresholdControl;

// 3. Threshold: the chosen field's length histogram with the keep as a line to drag, a number
// and the recommendation, and in plain words why that number (the state's keep, as in Arrays).
class WizardThresholdPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardThresholdPage(MigrationWizard *wizard);
    void initializePage() override;
    ThresholdControl *control() const { return m_control; }
    ChartPanel *panel() const { return m_panel; }

private:
    void showKeep();
    void showCounters();

    MigrationWizard *m_wizard;
    QLabel *m_why;
    ThresholdControl *m_control;
    ChartPanel *m_panel;
};

} // namespace oe
