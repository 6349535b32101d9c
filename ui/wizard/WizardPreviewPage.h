#pragma once

#include <QWizardPage>

class QLabel;
class QProgressBar;

namespace oe {

class ChartPanel;
class DocumentLoader;
class MigrationWizard;
struct MigrationProgress;
class SplitExampleView;
struct DocumentPreview;
struct MigrationOutcome;
struct SplitConfig;

// 5. Preview: the pre-flight checks and the plan over the whole target (the session's own,
// exactly what apply will do): totals, the largest primary after, the predicted size
// distribution before and after, and one outlier (the longest array) before and after.
class WizardPreviewPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardPreviewPage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    QLabel *summary() const { return m_summary; }
    QProgressBar *progressBar() const { return m_progress; }
    ChartPanel *panel() const { return m_panel; }
    QLabel *exampleSummary() const { return m_exampleSummary; }
    SplitExampleView *example() const { return m_example; }
    bool exampleLoading() const { return m_exampleLoading; }

signals:
    void exampleShown();

private:
    void planned(const MigrationProgress &progress);
    void finished(const MigrationOutcome &outcome);
    void loadExample();
    void showExample(const DocumentPreview &preview, const QString &idJson,
                     const SplitConfig &config);

    MigrationWizard *m_wizard;
    QLabel *m_summary;
    QProgressBar *m_progress;
    QString m_planning; // the summary's first line while the plan reads
    ChartPanel *m_panel;
    QLabel *m_exampleSummary;
    SplitExampleView *m_example;
    DocumentLoader *m_loader;
    bool m_ready = false;
    bool m_exampleLoading = false;
};

} // namespace oe
