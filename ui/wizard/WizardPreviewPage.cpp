#include "wizard/WizardPreviewPage.h"

#include "bson/DocumentId.h"
#include "charts/Format.h"
#include "jobs/DocumentLoader.h"
#include "jobs/MigrationRunner.h"
#include "widgets/ChartPanel.h"
#include "widgets/SplitExampleView.h"
#include "wizard/MigrationWizard.h"
#include "workspace/SourceState.h"

#include <QLabel>
#include <QProgressBar>
#include <QSplitter>
#include <QVBoxLayout>

namespace oe {

WizardPreviewPage::WizardPreviewPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_summary(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_panel(new ChartPanel(HistogramChart::Unit::Bytes, this)),
      m_exampleSummary(new QLabel(this)), m_example(new SplitExampleView(this)),
      m_loader(new DocumentLoader(this))
{
    setTitle(tr("Preview"));
    setSubTitle(tr("What the split will do, read from every document it will touch."));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_panel->setHint(tr("Wheel: zoom · drag: pan"));
    m_exampleSummary->setWordWrap(true);
    m_exampleSummary->setTextFormat(Qt::RichText);
    m_exampleSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *exampleBox = new QWidget(this);
    auto *exampleLayout = new QVBoxLayout(exampleBox);
    exampleLayout->setContentsMargins(0, 0, 0, 0);
    exampleLayout->addWidget(m_exampleSummary);
    exampleLayout->addWidget(m_example, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_panel);
    split->addWidget(exampleBox);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_progress);
    layout->addWidget(split, 1);
    m_progress->setVisible(false);
    connect(m_wizard->runner(), &MigrationRunner::finished, this, &WizardPreviewPage::finished);
    connect(m_wizard->runner(), &MigrationRunner::progressed, this, &WizardPreviewPage::planned);
    connect(m_loader, &DocumentLoader::loaded, this,
            [this](const QByteArray &document, const QString &idJson) {
                m_example->show(document, idJson, m_wizard->config());
            });
    connect(m_loader, &DocumentLoader::failed, this, [this](const QString &message) {
        m_exampleLoading = false;
        m_exampleSummary->setText(
            tr("Could not load the example document: %1").arg(message.toHtmlEscaped()));
    });
    connect(m_example, &SplitExampleView::shown, this, &WizardPreviewPage::showExample);
}

void WizardPreviewPage::initializePage()
{
    m_ready = false;
    const SplitConfig config = m_wizard->config();
    m_wizard->runner()->setTarget(m_wizard->source(), config, m_wizard->outDir());
    m_planning = tr("Checking %1 and planning the split of <b>%2</b> (keep %3, pages of %4): "
                    "every document is read…")
                     .arg(m_wizard->source().displayName().toHtmlEscaped(),
                          config.field.toHtmlEscaped(), Format::count(std::uint64_t(config.keep)),
                          Format::count(std::uint64_t(config.pageSize)));
    m_summary->setText(m_planning);
    // The documents the plan reads: the collection's, as the analysis knew them.
    const CollectionProfile &profile = m_wizard->state()->result().profile;
    const std::uint64_t expected = profile.population.value_or(profile.documents);
    m_progress->setRange(0, int(std::min<std::uint64_t>(expected, 1u << 30)));
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of about %m documents read"));
    m_progress->setVisible(true);
    m_panel->chart()->setBins({});
    m_panel->chart()->clearComparison();
    m_panel->chart()->setEmptyText(tr("Planning the split: the sizes after it appear here."));
    m_wizard->runner()->start(MigrationOutcome::Step::Prepare);
    loadExample();
    emit completeChanged();
}

// The outlier with the longest array at the chosen path, as the analysis found it.
void WizardPreviewPage::loadExample()
{
    m_example->clear();
    const AnalysisResult &result = m_wizard->state()->result();
    const FieldProfile *field = result.profile.field(m_wizard->config().field.toStdString());
    const std::vector<TailCandidate> longest =
        field ? field->longestPerDocument.largest(1) : std::vector<TailCandidate>{};
    if (longest.empty()) {
        m_exampleSummary->setText(tr("No document with this array in the analysis."));
        return;
    }
    const QString id = DocumentId::toRelaxedJson(longest.front().rawId);
    m_exampleSummary->setText(
        tr("Loading the longest <i>%1</i> (_id %2)…")
            .arg(m_wizard->config().field.toHtmlEscaped(), id.toHtmlEscaped()));
    m_exampleLoading = true;
    m_loader->load(result.request.source, longest.front().docIndex, id);
}

void WizardPreviewPage::showExample(const DocumentPreview &p, const QString &idJson,
                                    const SplitConfig &config)
{
    if (!p.problem.isEmpty())
        m_exampleSummary->setText(tr("_id %1 cannot be split: %2")
                                      .arg(idJson.toHtmlEscaped(), p.problem.toHtmlEscaped()));
    else if (!p.affected)
        m_exampleSummary->setText(
            tr("The longest <i>%1</i> (_id %2, %3) stays as it is at keep %4.")
                .arg(config.field.toHtmlEscaped(), idJson.toHtmlEscaped(),
                     Format::bytes(p.sizeBefore), Format::count(std::uint64_t(config.keep))));
    else
        m_exampleSummary->setText(
            tr("One outlier, the longest <i>%1</i> (_id %2): %3 before → primary %4 + %5 "
               "overflow document(s).")
                .arg(config.field.toHtmlEscaped(), idJson.toHtmlEscaped(),
                     Format::bytes(p.sizeBefore), Format::bytes(p.primarySize),
                     Format::count(std::uint64_t(p.pageJson.size()))));
    m_exampleLoading = false;
    emit exampleShown();
}

// The plan's progress: documents read so far, and those it would split.
void WizardPreviewPage::planned(const MigrationProgress &progress)
{
    if (progress.phase != QLatin1String("planning"))
        return;
    if (std::uint64_t(m_progress->maximum()) < progress.examined)
        m_progress->setMaximum(int(std::min<std::uint64_t>(progress.examined, 1u << 30)));
    m_progress->setValue(int(std::min<std::uint64_t>(progress.examined, 1u << 30)));
    m_summary->setText(m_planning + QStringLiteral("<br>") +
                       tr("%1 documents read, %2 to split so far (%3 s).")
                           .arg(Format::count(progress.examined), Format::count(progress.migrated))
                           .arg(progress.seconds, 0, 'f', 1));
}

void WizardPreviewPage::finished(const MigrationOutcome &outcome)
{
    if (outcome.step != MigrationOutcome::Step::Prepare)
        return;
    m_progress->setVisible(false);
    m_panel->chart()->setEmptyText(tr("No documents to show."));
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
