#include "wizard/WizardSafetyPage.h"

#include "charts/Format.h"
#include "jobs/MigrationRunner.h"
#include "migration/MigrationOptions.h"
#include "wizard/MigrationWizard.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace oe {

WizardSafetyPage::WizardSafetyPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_findings(new QLabel(this)),
      m_backup(
          new QCheckBox(tr("Copy every document to be split into a bac&kup collection:"), this)),
      m_backupName(new QLineEdit(this)), m_pace(new QWidget(this)), m_batch(new QSpinBox(m_pace)),
      m_throttle(new QSpinBox(m_pace)),
      m_dryRun(new QCheckBox(tr("&Dry run: show the plan only, write nothing"), this)),
      m_confirmLabel(new QLabel(this)), m_confirm(new QLineEdit(this))
{
    setTitle(tr("Safety"));
    setSubTitle(tr("Read before anything is written."));
    setCommitPage(true); // past this page the split is under way: no way back
    setButtonText(QWizard::CommitButton, tr("&Apply the split"));
    m_findings->setWordWrap(true);
    m_findings->setTextFormat(Qt::RichText);
    m_findings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_backupName->setEnabled(false);
    m_confirmLabel->setBuddy(m_confirm);
    m_confirmLabel->setWordWrap(true);
    auto *backupRow = new QHBoxLayout;
    backupRow->addWidget(m_backup);
    backupRow->addWidget(m_backupName, 1);
    const MigrationOptions defaults;
    m_batch->setRange(1, 100000);
    m_batch->setValue(int(defaults.batch));
    m_batch->setSuffix(tr(" documents"));
    m_batch->setToolTip(tr("At most this many documents per round (journal, pages, trims); "
                           "smaller rounds stop sooner when you press Stop."));
    m_throttle->setRange(0, 1000000);
    m_throttle->setValue(0);
    m_throttle->setSpecialValueText(tr("no limit"));
    m_throttle->setSuffix(tr(" documents/s"));
    m_throttle->setToolTip(tr("Split at most this many documents per second, to spare a busy "
                              "cluster."));
    auto *batchLabel = new QLabel(tr("Batch si&ze:"), m_pace);
    batchLabel->setBuddy(m_batch);
    auto *throttleLabel = new QLabel(tr("at m&ost:"), m_pace);
    throttleLabel->setBuddy(m_throttle);
    auto *paceRow = new QHBoxLayout(m_pace);
    paceRow->setContentsMargins(0, 0, 0, 0);
    paceRow->addWidget(batchLabel);
    paceRow->addWidget(m_batch);
    paceRow->addSpacing(12);
    paceRow->addWidget(throttleLabel);
    paceRow->addWidget(m_throttle);
    paceRow->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_findings);
    layout->addSpacing(8);
    layout->addLayout(backupRow);
    layout->addWidget(m_pace);
    layout->addWidget(m_dryRun);
    layout->addSpacing(8);
    layout->addWidget(m_confirmLabel);
    layout->addWidget(m_confirm);
    layout->addStretch(1);
    connect(m_backup, &QCheckBox::toggled, m_backupName, &QWidget::setEnabled);
    connect(m_dryRun, &QCheckBox::toggled, this, &QWizardPage::completeChanged);
    connect(m_confirm, &QLineEdit::textChanged, this, &QWizardPage::completeChanged);
    connect(m_wizard, &MigrationWizard::confirmRequested, this,
            [this] { m_confirm->setText(expectedConfirmation()); });
}

QString WizardSafetyPage::expectedConfirmation() const
{
    return m_wizard->source().collectionName();
}

void WizardSafetyPage::initializePage()
{
    const MigrationOutcome &prepared = m_wizard->outcome(MigrationOutcome::Step::Prepare);
    const SplitConfig config = m_wizard->runner()->config();
    const bool live = m_wizard->isLive();
    QStringList items;
    for (const QString &note : prepared.notes)
        items << note.toHtmlEscaped();
    // Pages, their index entries and the journal: roughly the moved bytes once more, plus a
    // journal document per split document.
    const std::uint64_t extra = prepared.plan.bytesMoved + prepared.plan.affected * 256;
    items << (live ? tr("Disk: about %1 more on the server while both copies exist (pages, their "
                        "index, the journal); the trims then give most of it back.")
                         .arg(Format::bytes(extra))
                   : tr("Disk: the new dump folder %1 takes the source's size and about %2 "
                        "more (pages and journal).")
                         .arg(m_wizard->outDir().toHtmlEscaped(), Format::bytes(extra)));
    items << tr("Index: a unique index on {%1: 1, %2: 1} in <i>%3</i> (pages are upserted under "
                "it, so a resumed run never writes a page twice).")
                 .arg(config.linkField.toHtmlEscaped(), config.pageField.toHtmlEscaped(),
                      config.overflowCollection.toHtmlEscaped());
    items << (live ? tr("Every step goes to the journal <i>%1</i>: cancel, crash or close the "
                        "window and the run resumes where it stopped.")
                         .arg(config.journalCollection().toHtmlEscaped())
                   : tr("The source dump is never changed."));
    m_findings->setText(QStringLiteral("<ul><li>") + items.join(QStringLiteral("</li><li>")) +
                        QStringLiteral("</li></ul>"));
    m_backup->setVisible(live);
    m_backupName->setVisible(live);
    m_pace->setVisible(live); // an offline split writes a new dump in one pass
    if (m_backupName->text().isEmpty())
        m_backupName->setText(config.collection + QStringLiteral("_backup"));
    m_confirmLabel->setText(
        tr("Type <b>%1</b> to &confirm the split:").arg(expectedConfirmation().toHtmlEscaped()));
}

bool WizardSafetyPage::isComplete() const
{
    return m_wizard->outcome(MigrationOutcome::Step::Prepare).ok &&
           (m_dryRun->isChecked() || m_confirm->text() == expectedConfirmation());
}

bool WizardSafetyPage::validatePage()
{
    m_wizard->setDryRun(m_dryRun->isChecked());
    m_wizard->setBackupCollection(
        m_backup->isChecked() && m_wizard->isLive() ? m_backupName->text().trimmed() : QString());
    m_wizard->setPace(std::size_t(m_batch->value()), double(m_throttle->value()));
    m_wizard->appendLog(m_dryRun->isChecked()
                            ? tr("Dry run chosen: nothing written")
                            : tr("Confirmed by typing %1").arg(expectedConfirmation()));
    return true;
}

} // namespace oe
