#pragma once

#include <cstdint>

#include <QElapsedTimer>
#include <QWizardPage>

class QLabel;
class QProgressBar;
class QPushButton;

namespace oe {

class MigrationWizard;
struct MigrationOutcome;
struct MigrationProgress;

// 7. Apply: the split, with documents/s, time left, elements moved and pages written. Cancel
// stops after the current batch; Resume continues from the journal (live) or starts the
// all-or-nothing offline split again. There is no way back (the safety page commits).
class WizardApplyPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardApplyPage(MigrationWizard *wizard);
    void initializePage() override;
    bool isComplete() const override;
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *resumeButton() const { return m_resume; }
    QLabel *status() const { return m_status; }
    QLabel *figures() const { return m_figures; }
    QProgressBar *progressBar() const { return m_bar; }

private:
    void start();
    void progressed(const MigrationProgress &progress);
    void finished(const MigrationOutcome &outcome);

    MigrationWizard *m_wizard;
    QProgressBar *m_bar;
    QLabel *m_figures;
    // Documents split by this wizard's earlier, stopped runs: a resumed run counts from there.
    std::uint64_t m_before = 0;
    std::uint64_t m_elementsBefore = 0, m_pagesBefore = 0; // the same runs' elements and pages
    bool m_stopped = false;
    QLabel *m_status;
    QPushButton *m_cancel;
    QPushButton *m_resume;
    QElapsedTimer m_clock;
    bool m_done = false;
};

} // namespace oe
