#include "wizard/WizardRemedyPage.h"

#include "charts/Format.h"
#include "jobs/LatestJob.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/RewriteSession.h"
#include "widgets/ChartPanel.h"
#include "wizard/MigrationWizard.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace oe {

namespace {

// The remedies the box offers for an outlier: those curing its flag (a big value's two), or the
// suggested one.
std::vector<const Remedy *> remediesFor(const WizardRemedy &remedy)
{
    if (!remedy.rewrite)
        return {};
    std::vector<const Remedy *> out = RemedyRegistry::curing(remedy.flag.kind);
    const Remedy &suggested = RemedyRegistry::of(remedy.rewrite->kind);
    if (std::find(out.begin(), out.end(), &suggested) == out.end())
        out = {&suggested};
    return out;
}

} // namespace

WizardRemedyPage::WizardRemedyPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_what(new QLabel(this)), m_kind(new QComboBox(this)),
      m_summary(new QLabel(this)), m_panel(new ChartPanel(HistogramChart::Unit::Bytes, this)),
      m_apply(new QPushButton(tr("&Apply, verify or roll back…"), this)),
      m_guard(new QPushButton(tr("&Guard the type…"), this)), m_job(new LatestJob(this))
{
    setTitle(tr("Remedy"));
    setSubTitle(tr("The cure for this outlier, previewed over every document that holds the "
                   "field: nothing is written until you apply it."));
    m_kind->setObjectName(QStringLiteral("remedyKind"));
    for (QLabel *label : {m_what, m_summary}) {
        label->setWordWrap(true);
        label->setTextFormat(Qt::RichText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_panel->setHint(tr("Wheel: zoom · drag: pan"));
    m_panel->setExportName(QStringLiteral("remedy_sizes"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_apply);
    buttons->addWidget(m_guard);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_what);
    layout->addWidget(m_kind);
    layout->addWidget(m_summary);
    layout->addWidget(m_panel, 1);
    layout->addLayout(buttons);
    setFinalPage(true);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] { preview(); });
    connect(m_apply, &QPushButton::clicked, this, &WizardRemedyPage::openRewrite);
    connect(m_guard, &QPushButton::clicked, this, &WizardRemedyPage::openGuard);
}

void WizardRemedyPage::initializePage()
{
    const std::optional<WizardRemedy> &remedy = m_wizard->remedy();
    if (!remedy)
        return;
    m_what->setText(tr("<b>%1</b> at <b>%2</b>: %3.<br>The remedy: %4.")
                        .arg(remedy->outlierName().toHtmlEscaped(),
                             QString::fromStdString(remedy->flag.path).toHtmlEscaped(),
                             remedy->flag.detail.toHtmlEscaped(), remedy->name().toHtmlEscaped()));
    const QSignalBlocker quiet(m_kind);
    m_kind->clear();
    for (const Remedy *cure : remediesFor(*remedy))
        m_kind->addItem(cure->offer(*remedy->rewrite), int(cure->kind()));
    m_kind->setVisible(m_kind->count() > 0);
    m_guard->setVisible(remedy->typeRule.has_value());
    preview();
}

RewriteConfig WizardRemedyPage::config() const
{
    const std::optional<WizardRemedy> &remedy = m_wizard->remedy();
    RewriteConfig c = remedy && remedy->rewrite ? *remedy->rewrite : RewriteConfig{};
    if (m_kind->currentIndex() >= 0)
        c.kind = RewriteKind(m_kind->currentData().toInt());
    // The flagged big values are strings as often as binaries: a bucket takes both here.
    c.gridfsStrings = RemedyRegistry::of(c.kind).options().testFlag(Remedy::Option::Bucket);
    return c;
}

void WizardRemedyPage::preview()
{
    m_panel->chart()->setBins({});
    m_panel->chart()->clearComparison();
    m_apply->setEnabled(false);
    if (!m_wizard->isLive()) {
        m_summary->setText(tr("The remedies rewrite a live collection: open the collection "
                              "this dump came from to preview and apply them."));
        m_guard->setEnabled(false);
        return;
    }
    if (!m_wizard->remedy() || !m_wizard->remedy()->rewrite) {
        m_summary->setText(tr("A type guard is the remedy: no value has an exact conversion."));
        return;
    }
    const RewriteConfig chosen = config();
    const SourceRef source = m_wizard->source();
    m_summary->setText(
        RemedyRegistry::of(chosen.kind).scope() == Remedy::Scope::FieldFamily
            ? tr("Reading every document that holds any of the %1 fields…")
                  .arg(chosen.fields.size())
            : tr("Reading every document that holds %1…").arg(chosen.path.toHtmlEscaped()));
    m_panel->chart()->setEmptyText(tr("The sizes after the rewrite appear here."));
    m_job->start(
        [source, chosen](const std::atomic<bool> &cancelled) {
            RewriteSession session(source.settings, source.database, chosen);
            return session.preview({}, &cancelled);
        },
        [this](const RewriteStep &step) { showPreview(step); });
}

void WizardRemedyPage::showPreview(const RewriteStep &step)
{
    m_last = step;
    if (!step.ok) {
        m_summary->setText(
            tr("<b>The preview failed:</b> %1").arg(step.error.toString().toHtmlEscaped()));
        emit previewed(false);
        return;
    }
    const RewritePreview &p = step.preview;
    m_panel->chart()->setBins(p.sizesBefore.histogram().bins());
    m_panel->chart()->setComparison(p.sizesAfter.histogram().bins(), tr("after the rewrite"),
                                    tr("now"));
    QStringList lines;
    lines << tr("<b>%1 of the %2 documents read</b> would change; %3 are so already; %4 "
                "cannot be rewritten exactly (left as they are).")
                 .arg(Format::count(p.changes), Format::count(p.examined),
                      Format::count(p.unchanged), Format::count(p.cannot));
    if (p.changes > 0)
        lines << tr("The values rewritten: %1 bytes now, %2 bytes after.")
                     .arg(Format::count(p.bytesBefore), Format::count(p.bytesAfter));
    if (p.sizesBefore.count() > 0)
        lines << tr("The documents' sizes: largest %1 bytes now (%2), %3 bytes after (%4); in "
                    "all %5 bytes now, %6 bytes after.")
                     .arg(Format::count(p.sizesBefore.max()), Format::bytes(p.sizesBefore.max()),
                          Format::count(p.sizesAfter.max()), Format::bytes(p.sizesAfter.max()),
                          Format::count(p.sizesBefore.sum()), Format::count(p.sizesAfter.sum()));
    if (const QString note = RemedyRegistry::of(config().kind).windowNote(config());
        !note.isEmpty())
        lines << note.toHtmlEscaped();
    for (const QString &note : p.notes)
        lines << note.toHtmlEscaped();
    m_summary->setText(lines.join(QStringLiteral("<br>")));
    m_apply->setEnabled(p.changes > 0);
    m_wizard->appendLog(tr("Remedy preview (%1): %2 of %3 documents to rewrite")
                            .arg(config().describe())
                            .arg(p.changes)
                            .arg(p.examined));
    emit previewed(true);
}

void WizardRemedyPage::openRewrite()
{
    m_wizard->appendLog(tr("Remedy opened: %1").arg(config().describe()));
    emit m_wizard->rewriteRequested(config());
}

void WizardRemedyPage::openGuard()
{
    const std::optional<WizardRemedy> &remedy = m_wizard->remedy();
    if (remedy && remedy->typeRule)
        emit m_wizard->typeGuardRequested(*remedy->typeRule);
}

} // namespace oe
