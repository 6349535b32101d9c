#pragma once

#include "remedy/RewriteConfig.h"
#include "remedy/RewriteReport.h"

#include <QWizardPage>

class QComboBox;
class QLabel;
class QPushButton;

namespace oe {

class ChartPanel;
class LatestJob;
class MigrationWizard;

// The remedy for a schema outlier other than an unbounded array (the analysis page's other
// outliers): the cure its kind calls for (a big value extracted to a side collection or
// stored in GridFS, keys used as data to an array, a mixed type guarded and optionally
// converted), previewed at once by core's RewriteSession over every document holding the
// field: what it would change and cannot, and the predicted size distribution after it beside
// the one now, as the split's preview shows it. Apply, verify and roll back open the Rewrite
// dialog on the same rewrite; a mixed type's guard opens the type guard dialog (through the
// wizard's signals: the window that owns it opens them).
class WizardRemedyPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WizardRemedyPage(MigrationWizard *wizard);
    void initializePage() override;
    int nextId() const override { return -1; }

    RewriteConfig config() const; // the remedy chosen, with the kind the box shows
    QComboBox *kindBox() const { return m_kind; }
    QLabel *summary() const { return m_summary; }
    ChartPanel *panel() const { return m_panel; }
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *guardButton() const { return m_guard; }
    const RewriteStep &lastPreview() const { return m_last; }

signals:
    void previewed(bool ok);

private:
    void preview();
    void showPreview(const RewriteStep &step);
    void openRewrite();
    void openGuard();

    MigrationWizard *m_wizard;
    QLabel *m_what;
    QComboBox *m_kind;
    QLabel *m_summary;
    ChartPanel *m_panel;
    QPushButton *m_apply;
    QPushButton *m_guard;
    LatestJob *m_job;
    RewriteStep m_last;
};

} // namespace oe
