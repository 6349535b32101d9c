#include "wizard/WizardGuardPage.h"

#include "bson/JsonIndenter.h"
#include "guard/GuardSession.h"
#include "jobs/LatestJob.h"
#include "jobs/MigrationRunner.h"
#include "wizard/MigrationWizard.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace oe {

namespace {
// A shell word: single-quoted unless it is plainly safe.
QString shellWord(const QString &word)
{
    static const QString safe =
        QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,/:=@");
    if (!word.isEmpty() &&
        std::all_of(word.begin(), word.end(), [](QChar c) { return safe.contains(c); }))
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}
} // namespace

WizardGuardPage::WizardGuardPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_intro(new QLabel(this)),
      m_action(new QComboBox(this)),
      m_strict(new QCheckBox(tr("&Strict: check updates to documents already over it too"), this)),
      m_useError(new QPushButton(tr("Use &error"), this)), m_settings(new QLabel(this)),
      m_command(new QPlainTextEdit(this)), m_status(new QLabel(this)),
      m_apply(new QPushButton(tr("A&pply the guard"), this)),
      m_remove(new QPushButton(tr("Re&move the guard"), this)), m_job(new LatestJob(this))
{
    setTitle(tr("Guard"));
    setSubTitle(tr("Keep it fixed: a validator that stops the primary array growing past the "
                   "keep again. Optional."));
    m_intro->setWordWrap(true);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_settings->setWordWrap(true);
    m_settings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_useError->setVisible(false);
    // A wrapped label in a wizard page gets one line unless told: room for three.
    m_status->setMinimumHeight(m_status->fontMetrics().lineSpacing() * 3);
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_action->addItem(tr("Warn: the server logs a write that breaks it"), int(GuardAction::Warn));
    m_action->addItem(tr("Error: the server refuses it"), int(GuardAction::Error));
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *actionLabel = new QLabel(tr("&When a write breaks it:"), this);
    actionLabel->setBuddy(m_action);
    auto *row = new QHBoxLayout;
    row->addWidget(actionLabel);
    row->addWidget(m_action);
    row->addWidget(m_useError);
    row->addStretch(1);
    row->addWidget(m_apply);
    row->addWidget(m_remove);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(row);
    layout->addWidget(m_strict);
    layout->addWidget(m_settings);
    layout->addWidget(m_status);
    layout->addWidget(m_command, 1);
    connect(m_action, &QComboBox::currentIndexChanged, this, &WizardGuardPage::replan);
    connect(m_strict, &QCheckBox::toggled, this, &WizardGuardPage::replan);
    connect(m_useError, &QPushButton::clicked, this,
            [this] { m_action->setCurrentIndex(m_action->findData(int(GuardAction::Error))); });
    connect(m_apply, &QPushButton::clicked, this, &WizardGuardPage::apply);
    connect(m_remove, &QPushButton::clicked, this, &WizardGuardPage::remove);
}

GuardAction WizardGuardPage::action() const
{
    return GuardAction(m_action->currentData().toInt());
}

GuardRequest WizardGuardPage::request() const
{
    GuardRequest request;
    request.action = action();
    request.level = m_strict->isChecked() ? ValidationLevel::Strict : ValidationLevel::Moderate;
    return request;
}

QString WizardGuardPage::cliCommand() const
{
    const SplitConfig c = m_wizard->runner()->config();
    const SourceRef s = m_wizard->source();
    QStringList words = {QStringLiteral("outlier-explorer-cli"),
                         QStringLiteral("guard"),
                         QStringLiteral("--uri"),
                         QStringLiteral("URI"),
                         QStringLiteral("--db"),
                         s.database.isEmpty() ? QStringLiteral("DB") : s.database,
                         QStringLiteral("--collection"),
                         c.collection,
                         QStringLiteral("--field"),
                         c.field,
                         QStringLiteral("--keep"),
                         QString::number(c.keep),
                         QStringLiteral("--flag-field"),
                         c.flagField,
                         QStringLiteral("--action"),
                         guardActionName(action())};
    if (m_strict->isChecked())
        words << QStringLiteral("--level") << QStringLiteral("strict");
    for (QString &w : words)
        if (w != QLatin1String("URI"))
            w = shellWord(w);
    return words.join(QLatin1Char(' '));
}

void WizardGuardPage::initializePage()
{
    const SplitConfig c = m_wizard->runner()->config();
    m_intro->setText(
        tr("A $jsonSchema rule holds %1 at %2 elements at most and %3 to true or false, "
           "merged with the collection's own validator under $and (never replacing it). Level "
           "and action apply to the whole validator, so they are never set below the "
           "collection's own; where it has none, validationLevel moderate leaves documents "
           "already over it alone until they are split. The generated write path keeps to it; "
           "an application's plain $push past %2 is logged (warn) or refused (error). Start "
           "with warn where the collection allows it.")
            .arg(c.field, QString::number(c.keep), c.flagField));
    replan();
}

void WizardGuardPage::replan()
{
    if (!m_wizard->isLive()) {
        m_apply->setEnabled(false);
        m_remove->setEnabled(false);
        m_command->setPlainText(cliCommand());
        m_status->setText(tr("A dump has no validator: once the split collection is restored, "
                             "run the command above."));
        return;
    }
    m_apply->setEnabled(false);
    m_status->setText(tr("Reading the collection's validator and counting the documents over "
                         "the guard…"));
    const SourceRef source = m_wizard->source();
    const SplitConfig config = m_wizard->runner()->config();
    const GuardRequest chosen = request();
    m_job->start(
        [source, config, chosen] {
            return GuardSession::plan(source.settings, source.database, config, chosen);
        },
        [this](const GuardPlan &plan) { showPlan(plan); });
}

void WizardGuardPage::showSettings(const GuardPlan &plan)
{
    QString text = tr("On the server now: %1.").arg(plan.current.describe());
    if (plan.decision.block == GuardBlock::None)
        text += QLatin1Char(' ') + tr("With the guard: validationLevel %1, validationAction %2.")
                                       .arg(validationLevelName(plan.decision.level),
                                            validationActionName(plan.decision.action));
    for (const QString &note : plan.decision.notes)
        text += QLatin1Char('\n') + tr("Note: %1.").arg(note);
    m_settings->setText(text);
}

void WizardGuardPage::showPlan(const GuardPlan &plan)
{
    m_plan = plan;
    const bool ok = !plan.error.isError();
    m_apply->setEnabled(ok && plan.canApply());
    m_remove->setEnabled(ok && plan.guardInPlace);
    m_useError->setVisible(ok && plan.decision.block == GuardBlock::WarnWouldWeaken);
    if (!ok) {
        m_command->setPlainText(cliCommand());
        m_settings->clear();
        m_status->setText(tr("No guard here: %1").arg(plan.error.message));
        emit planned(false);
        return;
    }
    showSettings(plan);
    if (plan.decision.block != GuardBlock::None) {
        m_command->setPlainText(cliCommand());
        m_status->setText(tr("Not applied as it stands: %1.").arg(plan.decision.blockMessage));
        emit planned(true);
        return;
    }
    const QByteArray json = plan.collModJson.toUtf8();
    m_command->setPlainText(tr("// runs on %1\ndb.runCommand(%2)\n\n// the same from a shell:\n%3")
                                .arg(plan.database,
                                     QString::fromStdString(JsonIndenter::indent(
                                         json.constData(), std::size_t(json.size()))),
                                     cliCommand()));
    QString text = tr("%n document(s) over the guard now.", nullptr,
                      int(std::min<std::int64_t>(plan.conflicts, INT_MAX)));
    text += QLatin1Char(' ') +
            (plan.previousValidatorJson.isEmpty()
                 ? tr("The collection's own validator: none.")
                 : tr("The collection's own validator stays: %1").arg(plan.previousValidatorJson));
    if (plan.guardInPlace)
        text += QLatin1Char(' ') + tr("A guard is in place: Apply replaces it.");
    if (plan.validatorChanged)
        text += QLatin1Char(' ') +
                tr("The validator changed since it was applied: the change is kept.");
    m_status->setText(text);
    emit planned(true);
}

void WizardGuardPage::apply()
{
    if (m_plan.error.isError() || m_plan.collMod.isEmpty())
        return;
    m_apply->setEnabled(false);
    m_remove->setEnabled(false);
    m_status->setText(tr("Applying the guard…"));
    const SourceRef source = m_wizard->source();
    const GuardPlan plan = m_plan;
    m_job->start([source, plan] { return GuardSession::apply(source.settings, plan); },
                 [this](const GuardOutcome &outcome) { showOutcome(outcome); });
}

void WizardGuardPage::remove()
{
    m_apply->setEnabled(false);
    m_remove->setEnabled(false);
    m_status->setText(tr("Removing the guard…"));
    const SourceRef source = m_wizard->source();
    const QString collection = m_wizard->runner()->config().collection;
    const bool force = m_forceRemove;
    m_job->start(
        [source, collection, force] {
            return GuardSession::remove(source.settings, source.database, collection, force);
        },
        [this](const GuardOutcome &outcome) { showOutcome(outcome); });
}

void WizardGuardPage::showOutcome(const GuardOutcome &outcome)
{
    m_wizard->appendLog(outcome.ok ? outcome.message
                                   : tr("guard: %1").arg(outcome.error.toString()));
    emit finished(outcome);
    QString said = outcome.ok ? outcome.message : outcome.error.message;
    for (const QString &note : outcome.notes)
        said += QStringLiteral(".\n") + tr("Note: %1").arg(note);
    if (outcome.changedSinceApplied)
        said += QStringLiteral(".\n") +
                tr("Validator now: %1\nWithout the guard's part: %2")
                    .arg(outcome.currentValidatorJson, outcome.remainingValidatorJson);
    // Refused because someone changed the validator: both are shown, and Remove becomes the
    // confirmation (only the guard's part goes).
    m_forceRemove = !outcome.ok && outcome.changedSinceApplied;
    m_remove->setText(m_forceRemove ? tr("Re&move only the guard's part")
                                    : tr("Re&move the guard"));
    replan(); // what is in place now
    connect(
        this, &WizardGuardPage::planned, this,
        [this, said](bool) { m_status->setText(said + QStringLiteral(".\n") + m_status->text()); },
        Qt::SingleShotConnection);
}

} // namespace oe
