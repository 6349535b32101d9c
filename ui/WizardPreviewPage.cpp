#include "WizardPreviewPage.h"

#include "ChartPanel.h"
#include "DocumentId.h"
#include "Format.h"
#include "MigrationRunner.h"
#include "MigrationWizard.h"

#include <QLabel>
#include <QVBoxLayout>

namespace oe {

WizardPreviewPage::WizardPreviewPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_summary(new QLabel(this)),
      m_panel(new ChartPanel(HistogramChart::Unit::Bytes, this))
{
    setTitle(tr("Preview"));
    setSubTitle(tr("What the split will do, read from every document it will touch."));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_panel->setHint(tr("Wheel: zoom · drag: pan"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_panel, 1);
    connect(m_wizard->runner(), &MigrationRunner::finished, this, &WizardPreviewPage::finished);
}

void WizardPreviewPage::initializePage()
{
    m_ready = false;
    const SplitConfig config = m_wizard->config();
    m_wizard->runner()->setTarget(m_wizard->source(), config, m_wizard->outDir());
    m_summary->setText(tr("Checking %1 and planning the split of <b>%2</b> (keep %3, pages of %4)…")
                           .arg(m_wizard->source().displayName().toHtmlEscaped(),
                                config.field.toHtmlEscaped(),
                                Format::count(std::uint64_t(config.keep)),
                                Format::count(std::uint64_t(config.pageSize))));
    m_panel->chart()->setBins({});
    m_panel->chart()->clearComparison();
    m_wizard->runner()->start(MigrationOutcome::Step::Prepare);
    emit completeChanged();
}

void WizardPreviewPage::finished(const MigrationOutcome &outcome)
{
    if (outcome.step != MigrationOutcome::Step::Prepare)
        return;
    m_wizard->recordOutcome(outcome);
    if (!outcome.ok) {
        m_summary->setText(tr("<b>The split cannot go ahead:</b> %1")
                               .arg(outcome.error.toString().toHtmlEscaped()));
        m_wizard->appendLog(tr("Pre-flight failed: %1").arg(outcome.error.toString()));
        return;
    }
    const SplitPlan &plan = outcome.plan;
    const SplitConfig config = m_wizard->runner()->config();
    m_panel->chart()->setBins(plan.sizesBefore.histogram().bins());
    m_panel->chart()->setComparison(plan.sizesAfter.histogram().bins(), tr("after the split"),
                                    tr("before"));
    m_summary->setText(
        tr("<b>%1 of %2 documents</b> will be split: %3 elements (%4) move into %5 documents of "
           "<i>%6</i>. Largest document: %7 before, %8 after (_id %9). Largest page: %10.%11")
            .arg(Format::count(plan.affected), Format::count(plan.documents),
                 Format::count(plan.elementsMoved), Format::bytes(plan.bytesMoved),
                 Format::count(plan.overflowDocuments), config.overflowCollection.toHtmlEscaped(),
                 Format::bytes(plan.sizesBefore.max()), Format::bytes(plan.largestPrimaryAfter),
                 DocumentId::toRelaxedJson(plan.largestPrimaryId).toHtmlEscaped())
            .arg(Format::bytes(plan.largestPageBytes),
                 plan.skippedDocuments
                     ? tr(" %1 document(s) where %2 is not an array stay as they are.")
                           .arg(Format::count(plan.skippedDocuments), config.field.toHtmlEscaped())
                     : QString()));
    m_wizard->appendLog(tr("Plan: %1 of %2 documents to split, %3 elements, %4 pages")
                            .arg(plan.affected)
                            .arg(plan.documents)
                            .arg(plan.elementsMoved)
                            .arg(plan.overflowDocuments));
    m_ready = plan.affected > 0;
    if (!m_ready)
        m_summary->setText(m_summary->text() +
                           tr("<br><b>Nothing to split at this keep.</b> Go back and lower it."));
    emit completeChanged();
}

bool WizardPreviewPage::isComplete() const
{
    return m_ready && !m_wizard->runner()->isRunning();
}

} // namespace oe
