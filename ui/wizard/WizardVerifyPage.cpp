#include "wizard/WizardVerifyPage.h"

#include "charts/Format.h"
#include "jobs/MigrationRunner.h"
#include "migration/OfflineSplitter.h"
#include "wizard/MigrationWizard.h"

#include <QCheckBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace oe {

WizardVerifyPage::WizardVerifyPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_summary(new QLabel(this)),
      m_details(new QPlainTextEdit(this)),
      m_confirm(new QCheckBox(tr("I &want the original documents back"), this)),
      m_rollback(new QPushButton(tr("&Roll back"), this)), m_rollbackBar(new QProgressBar(this)),
      m_rollbackStatus(new QLabel(this)), m_leftovers(new QLabel(this)),
      m_removeLeftovers(new QPushButton(tr("Re&move them"), this))
{
    setTitle(tr("Verify"));
    setSubTitle(tr("Each split document reassembled and compared with its original."));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_details->setReadOnly(true);
    m_details->setPlaceholderText(tr("Mismatches, one per line with the document's _id."));
    m_rollback->setEnabled(false);
    m_rollbackBar->setFormat(tr("%v of %m restored"));
    m_rollbackBar->hide();
    m_rollbackStatus->setWordWrap(true);
    m_rollbackStatus->setTextFormat(Qt::RichText);
    auto *rollbackRow = new QHBoxLayout;
    rollbackRow->addWidget(m_confirm);
    rollbackRow->addWidget(m_rollback);
    rollbackRow->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_details, 1);
    layout->addLayout(rollbackRow);
    layout->addWidget(m_rollbackBar);
    layout->addWidget(m_rollbackStatus);
    m_leftovers->setWordWrap(true);
    m_leftovers->setTextFormat(Qt::RichText);
    m_leftovers->hide();
    m_removeLeftovers->hide();
    auto *leftoverRow = new QHBoxLayout;
    leftoverRow->addWidget(m_leftovers, 1);
    leftoverRow->addWidget(m_removeLeftovers);
    layout->addLayout(leftoverRow);
    connect(m_removeLeftovers, &QPushButton::clicked, this, [this] {
        m_busy = true;
        m_removeLeftovers->setEnabled(false);
        m_wizard->appendLog(tr("Removing what the rollback left"));
        m_wizard->runner()->start(MigrationOutcome::Step::RemoveLeftovers, m_wizard->options());
        emit completeChanged();
    });
    connect(m_confirm, &QCheckBox::toggled, this,
            [this](bool on) { m_rollback->setEnabled(on && !m_busy && !m_rolledBack); });
    connect(m_rollback, &QPushButton::clicked, this, &WizardVerifyPage::startRollback);
    connect(m_wizard->runner(), &MigrationRunner::finished, this, &WizardVerifyPage::finished);
    connect(m_wizard->runner(), &MigrationRunner::progressed, this,
            &WizardVerifyPage::rollbackProgressed);
}

void WizardVerifyPage::initializePage()
{
    m_details->clear();
    m_rollbackBar->hide();
    m_rolledBack = false;
    // The write path's slot counter fences a live rollback; older application code does not.
    m_rollbackStatus->setText(
        m_wizard->isLive()
            ? tr("The rollback is safe while the application appends with the write path "
                 "Outlier Explorer generates (each write-back is guarded by its slot counter). "
                 "Application code from before that should stop writing to this collection "
                 "first. Afterwards, the application appends with a plain $push again.")
            : QString());
    if (m_wizard->dryRun()) {
        m_summary->setText(tr("Dry run: nothing was written, so there is nothing to verify."));
        m_confirm->hide();
        m_rollback->hide();
        return;
    }
    if (!m_wizard->isLive()) {
        // Verify and rollback read the split dump back.
        SourceRef split;
        split.kind = SourceRef::Kind::Dump;
        split.dumpPath =
            QDir(m_wizard->outDir())
                .filePath(m_wizard->runner()->config().collection + QStringLiteral(".bson"));
        m_wizard->runner()->setTarget(split, m_wizard->runner()->config(), m_wizard->rollbackDir());
    }
    m_busy = true;
    m_summary->setText(tr("Verifying…"));
    m_wizard->runner()->start(MigrationOutcome::Step::Verify);
    emit completeChanged();
}

void WizardVerifyPage::finished(const MigrationOutcome &outcome)
{
    if (outcome.step == MigrationOutcome::Step::Verify)
        showVerify(outcome);
    else if (outcome.step == MigrationOutcome::Step::Rollback) {
        showRollback(outcome);
        m_rolledBack = outcome.ok;
    } else if (outcome.step == MigrationOutcome::Step::RemoveLeftovers)
        showRemoved(outcome);
    else
        return;
    m_wizard->recordOutcome(outcome);
    m_busy = false;
    m_rollingBack = false;
    m_rollback->setEnabled(m_confirm->isChecked() && !m_rolledBack);
    emit completeChanged();
}

void WizardVerifyPage::showVerify(const MigrationOutcome &outcome)
{
    if (!outcome.ok) {
        m_summary->setText(
            tr("<b>Could not verify:</b> %1").arg(outcome.error.toString().toHtmlEscaped()));
        m_wizard->appendLog(tr("Verify failed: %1").arg(outcome.error.toString()));
        return;
    }
    const VerifyReport &r = outcome.verify;
    m_summary->setText(
        tr("%1 <b>%2 documents checked</b>: %3 match their originals, %4 do not%5.")
            .arg(r.ok() ? tr("✔") : tr("✘"), Format::count(r.checked), Format::count(r.matching),
                 Format::count(r.mismatches),
                 r.appended
                     ? tr("; %1 element(s) appended since the split").arg(Format::count(r.appended))
                     : QString()));
    m_details->setPlainText(r.details.join(QLatin1Char('\n')));
    m_wizard->appendLog(tr("Verified: %1 checked, %2 matching, %3 mismatches")
                            .arg(r.checked)
                            .arg(r.matching)
                            .arg(r.mismatches));
}

void WizardVerifyPage::startRollback()
{
    m_busy = true;
    m_rollingBack = true;
    m_rollback->setEnabled(false);
    // Every split document goes back; the verify just done counted them.
    m_rollbackTotal = m_wizard->outcome(MigrationOutcome::Step::Verify).verify.checked;
    if (m_wizard->isLive() && m_rollbackTotal > 0) {
        m_rollbackBar->setRange(0, int(std::min<std::uint64_t>(m_rollbackTotal, INT_MAX)));
        m_rollbackBar->setValue(0);
    } else {
        m_rollbackBar->setRange(0, 0); // an offline rollback reports no steps: busy
    }
    m_rollbackBar->setFormat(tr("%v of %m restored"));
    m_rollbackBar->show();
    m_rollbackStatus->setText(tr("Rolling back…"));
    m_wizard->appendLog(tr("Rollback started"));
    m_wizard->runner()->start(MigrationOutcome::Step::Rollback, m_wizard->options());
    emit completeChanged();
}

void WizardVerifyPage::rollbackProgressed(const MigrationProgress &p)
{
    if (!m_rollingBack)
        return;
    if (m_rollbackBar->maximum() > 0)
        m_rollbackBar->setValue(
            int(std::min<std::uint64_t>(p.migrated, std::uint64_t(m_rollbackBar->maximum()))));
    const double rate = double(p.migrated) / std::max(p.seconds, 1e-3);
    m_rollbackStatus->setText(tr("Rolling back: %1 of %2 documents restored · %3 docs/s · %4 "
                                 "left as they were")
                                  .arg(Format::count(p.migrated), Format::count(m_rollbackTotal),
                                       QLocale().toString(rate, 'f', 1), Format::count(p.skipped)));
}

void WizardVerifyPage::showRollback(const MigrationOutcome &outcome)
{
    if (m_rollbackBar->maximum() == 0) { // offline: done or not
        m_rollbackBar->setRange(0, 1);
        m_rollbackBar->setValue(outcome.ok ? 1 : 0);
        m_rollbackBar->setFormat(outcome.ok ? tr("Rolled back") : tr("Stopped"));
    }
    if (!outcome.ok) {
        m_rollbackStatus->setText(tr("<b>The rollback stopped:</b> %1 — run it again: it "
                                     "continues from the journal.")
                                      .arg(outcome.error.toString().toHtmlEscaped()));
        m_wizard->appendLog(tr("Rollback failed: %1").arg(outcome.error.toString()));
        return;
    }
    const QString where = outcome.written.isEmpty() ? m_wizard->source().displayName()
                                                    : outcome.written.join(QStringLiteral(", "));
    const std::uint64_t restored =
        m_wizard->isLive() ? outcome.progress.migrated : outcome.verify.checked;
    QString text = tr("<b>Rolled back:</b> %1 documents restored, %2 mismatching (%3).")
                       .arg(Format::count(restored), Format::count(outcome.verify.mismatches),
                            where.toHtmlEscaped());
    for (const QString &note : outcome.progress.notes) // a guard lifted first
        text += QStringLiteral("<br>") + note.toHtmlEscaped();
    m_rollbackStatus->setText(text);
    m_wizard->appendLog(tr("Rolled back: %1").arg(where));
    for (const QString &note : outcome.progress.notes)
        m_wizard->appendLog(note);
    showLeftovers(outcome);
}

// Said, not silently left: the (empty) overflow collection, the journal, the backup.
void WizardVerifyPage::showLeftovers(const MigrationOutcome &outcome)
{
    if (outcome.leftovers.isEmpty())
        return;
    QStringList items;
    for (const QString &item : outcome.leftovers)
        items << item.toHtmlEscaped();
    m_leftovers->setText(tr("Left on the server: %1. They are no longer needed once the "
                            "originals are back.")
                             .arg(items.join(QStringLiteral("; "))));
    m_leftovers->show();
    m_removeLeftovers->setEnabled(true);
    m_removeLeftovers->show();
    m_wizard->appendLog(tr("Left on the server: %1").arg(outcome.leftovers.join(u"; ")));
}

void WizardVerifyPage::showRemoved(const MigrationOutcome &outcome)
{
    if (!outcome.ok) {
        m_leftovers->setText(
            tr("<b>Not removed:</b> %1").arg(outcome.error.toString().toHtmlEscaped()));
        m_removeLeftovers->setEnabled(true);
        m_wizard->appendLog(tr("Removing failed: %1").arg(outcome.error.toString()));
        return;
    }
    m_removeLeftovers->hide();
    m_leftovers->setText(tr("Removed: %1.").arg(outcome.leftovers.join(u"; ").toHtmlEscaped()));
    m_wizard->appendLog(tr("Removed: %1").arg(outcome.leftovers.join(u"; ")));
}

bool WizardVerifyPage::isComplete() const
{
    return !m_busy && !m_wizard->runner()->isRunning();
}

} // namespace oe
