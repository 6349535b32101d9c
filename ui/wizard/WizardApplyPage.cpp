#include "wizard/WizardApplyPage.h"

#include "charts/Format.h"
#include "jobs/MigrationRunner.h"
#include "wizard/MigrationWizard.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace oe {

WizardApplyPage::WizardApplyPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_bar(new QProgressBar(this)),
      m_figures(new QLabel(this)), m_status(new QLabel(this)),
      m_cancel(new QPushButton(tr("&Stop after this batch"), this)),
      m_resume(new QPushButton(tr("&Resume"), this))
{
    setTitle(tr("Apply"));
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::RichText);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_cancel);
    buttons->addWidget(m_resume);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_bar);
    layout->addWidget(m_figures);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_wizard->runner()->cancel();
        m_cancel->setEnabled(false);
        m_status->setText(tr("Stopping after the current batch…"));
    });
    connect(m_resume, &QPushButton::clicked, this, &WizardApplyPage::start);
    connect(m_wizard->runner(), &MigrationRunner::progressed, this, &WizardApplyPage::progressed);
    connect(m_wizard->runner(), &MigrationRunner::finished, this, &WizardApplyPage::finished);
}

void WizardApplyPage::initializePage()
{
    m_resume->hide();
    if (m_wizard->dryRun()) {
        m_done = true;
        m_bar->hide();
        m_cancel->hide();
        m_status->setText(tr("<b>Dry run:</b> nothing was written. The plan on the preview page "
                             "is what the split would do."));
        return;
    }
    start();
}

void WizardApplyPage::start()
{
    m_done = false;
    if (!m_stopped) { // a fresh run; after a stop, Resume goes on from what is already split
        m_before = 0;
        m_elementsBefore = 0;
        m_pagesBefore = 0;
    }
    m_stopped = false;
    const std::uint64_t total = m_wizard->outcome(MigrationOutcome::Step::Prepare).plan.affected;
    m_bar->setRange(0, m_wizard->isLive() ? int(std::min<std::uint64_t>(total, INT_MAX)) : 0);
    m_bar->setValue(int(std::min<std::uint64_t>(m_before, std::uint64_t(m_bar->maximum()))));
    m_cancel->setEnabled(true);
    m_cancel->show();
    m_resume->hide();
    m_status->setText(tr("Splitting %1 in %2…")
                          .arg(m_wizard->runner()->config().field.toHtmlEscaped(),
                               m_wizard->source().displayName().toHtmlEscaped()));
    m_clock.start();
    m_wizard->appendLog(tr("Apply started"));
    m_wizard->runner()->start(MigrationOutcome::Step::Apply, m_wizard->options());
    emit completeChanged();
}

void WizardApplyPage::progressed(const MigrationProgress &p)
{
    if (!m_wizard->runner()->isRunning() || m_done)
        return;
    const std::uint64_t total = m_wizard->outcome(MigrationOutcome::Step::Prepare).plan.affected;
    // The rate over the wall time since Apply started (a paced run waits between batches).
    const double seconds = std::max({double(m_clock.elapsed()) / 1000.0, p.seconds, 1e-3});
    const double rate = double(p.migrated) / seconds;
    const std::uint64_t done = m_before + p.migrated;
    const QString left =
        rate > 0 && total > done ? Format::duration(double(total - done) / rate) : tr("–");
    m_bar->setValue(int(std::min<std::uint64_t>(done, std::uint64_t(m_bar->maximum()))));
    m_figures->setText(
        tr("%1 of %2 documents split · %3 docs/s · %4 left · %5 elements moved · "
           "%6 pages written · %7 retried")
            .arg(Format::count(done), Format::count(total), QLocale().toString(rate, 'f', 1), left,
                 Format::count(m_elementsBefore + p.elementsMoved),
                 Format::count(m_pagesBefore + p.pagesWritten), Format::count(p.retried)));
}

void WizardApplyPage::finished(const MigrationOutcome &outcome)
{
    if (outcome.step != MigrationOutcome::Step::Apply)
        return;
    m_wizard->recordOutcome(outcome);
    m_cancel->hide();
    const MigrationProgress &p = outcome.progress;
    // Stopped or failed, the bar keeps showing how far it got (the journal has that much).
    const std::uint64_t total = m_wizard->outcome(MigrationOutcome::Step::Prepare).plan.affected;
    const std::uint64_t done = m_before + p.migrated;
    m_bar->setRange(0, int(std::min<std::uint64_t>(std::max<std::uint64_t>(total, 1), INT_MAX)));
    m_bar->setValue(int(std::min<std::uint64_t>(done, std::uint64_t(m_bar->maximum()))));
    const std::uint64_t elements = m_elementsBefore + p.elementsMoved,
                        pages = m_pagesBefore + p.pagesWritten;
    m_figures->setText(tr("%1 documents split (%2 in this run) · %3 elements moved · %4 pages "
                          "written · %5 retried · %6 skipped · %7")
                           .arg(Format::count(done), Format::count(p.migrated),
                                Format::count(elements), Format::count(pages),
                                Format::count(p.retried), Format::count(p.skipped),
                                Format::duration(outcome.seconds)));
    if (!outcome.ok) {
        m_status->setText(tr("<b>The split stopped:</b> %1<br>Nothing is lost: %2")
                              .arg(outcome.error.toString().toHtmlEscaped(),
                                   m_wizard->isLive()
                                       ? tr("Resume continues from the journal.")
                                       : tr("the offline split writes all or nothing.")));
        m_resume->show();
        m_before = done;
        m_elementsBefore = elements;
        m_pagesBefore = pages;
        m_stopped = true;
        m_wizard->appendLog(tr("Apply failed: %1").arg(outcome.error.toString()));
    } else if (outcome.cancelled) {
        m_status->setText(m_wizard->isLive()
                              ? tr("<b>Stopped</b> after %1 documents. Resume continues from the "
                                   "journal; the documents split so far are complete.")
                                    .arg(Format::count(done))
                              : tr("<b>Stopped:</b> nothing was written."));
        m_resume->show();
        m_before = done;
        m_elementsBefore = elements;
        m_pagesBefore = pages;
        m_stopped = true;
        m_wizard->appendLog(tr("Apply stopped by the user after %1 documents").arg(done));
    } else {
        m_bar->setRange(0, 1);
        m_bar->setValue(1);
        m_done = true;
        QStringList notes;
        for (const QString &note : outcome.notes)
            notes << note.toHtmlEscaped();
        m_status->setText(tr("<b>Done.</b> %1").arg(notes.join(QStringLiteral("<br>"))));
        m_wizard->appendLog(tr("Applied: %1 documents, %2 elements, %3 pages in %4 s")
                                .arg(p.migrated)
                                .arg(p.elementsMoved)
                                .arg(p.pagesWritten)
                                .arg(outcome.seconds, 0, 'f', 2));
        if (!outcome.written.isEmpty())
            m_wizard->appendLog(tr("Written: %1").arg(outcome.written.join(QStringLiteral(", "))));
    }
    emit completeChanged();
}

bool WizardApplyPage::isComplete() const
{
    return m_done && !m_wizard->runner()->isRunning();
}

} // namespace oe
