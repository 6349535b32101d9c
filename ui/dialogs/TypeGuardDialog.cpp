#include "dialogs/TypeGuardDialog.h"

#include "bson/JsonIndenter.h"
#include "guard/GuardSession.h"
#include "jobs/LatestJob.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace oe {

TypeGuardDialog::TypeGuardDialog(const SourceRef &source, const GuardRule &suggested,
                                 QWidget *parent)
    : QDialog(parent), m_source(source), m_suggested(suggested), m_types(new QLineEdit(this)),
      m_elements(new QCheckBox(tr("The types of the array's &elements"), this)),
      m_action(new QComboBox(this)), m_level(new QComboBox(this)), m_summary(new QLabel(this)),
      m_violations(new QTableWidget(0, 2, this)), m_command(new QPlainTextEdit(this)),
      m_status(new QLabel(this)), m_check(new QPushButton(tr("&Check"), this)),
      m_apply(new QPushButton(tr("&Apply the guard"), this)),
      m_remove(new QPushButton(tr("Re&move the guard"), this)), m_job(new LatestJob(this))
{
    setWindowTitle(tr("Type guard: %1").arg(suggested.path));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(760, 560);
    m_types->setText(suggested.types.join(QLatin1Char(',')));
    m_types->setToolTip(tr("$type aliases separated by commas: string, int, long, double, "
                           "decimal, number, bool, date, object, array, objectId, null, ..."));
    m_elements->setChecked(suggested.elements);
    m_action->addItem(tr("warn: the server logs a write that breaks it"));
    m_action->addItem(tr("error: the server refuses it"));
    m_level->addItem(tr("moderate: documents that break it now can still be updated"));
    m_level->addItem(tr("strict: every insert and update is checked"));
    m_level->setToolTip(tr("validationLevel: it applies to the whole validator, the "
                           "collection's own rules included, and is never set below theirs"));
    m_action->setToolTip(tr("validationAction: it applies to the whole validator, and is never "
                            "set below the collection's own"));
    m_summary->setWordWrap(true);
    m_status->setWordWrap(true);
    m_violations->setHorizontalHeaderLabels({tr("_id"), tr("Types it holds there")});
    m_violations->horizontalHeader()->setStretchLastSection(true);
    m_violations->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_violations->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_command->setMaximumHeight(150);

    auto *field = new QLabel(
        QStringLiteral("%1.%2 → %3").arg(source.database, source.collection, suggested.path), this);
    field->setTextFormat(Qt::PlainText); // names are data
    m_summary->setTextFormat(Qt::PlainText);
    m_status->setTextFormat(Qt::PlainText);
    auto *form = new QFormLayout;
    form->addRow(tr("Field:"), field);
    form->addRow(tr("&Types it may hold:"), m_types);
    form->addRow(QString(), m_elements);
    form->addRow(tr("When a write &breaks it:"), m_action);
    form->addRow(tr("&Which writes are checked:"), m_level);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_check);
    buttons->addStretch(1);
    buttons->addWidget(m_remove);
    buttons->addWidget(m_apply);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_violations, 1);
    layout->addWidget(new QLabel(tr("collMod:"), this));
    layout->addWidget(m_command);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    layout->addWidget(close);
    m_apply->setEnabled(false);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_check, &QPushButton::clicked, this, &TypeGuardDialog::check);
    connect(m_apply, &QPushButton::clicked, this, &TypeGuardDialog::apply);
    connect(m_remove, &QPushButton::clicked, this, &TypeGuardDialog::remove);
    // What is shown was planned for the fields as they were: a change plans again first.
    const auto stale = [this] { m_apply->setEnabled(false); };
    connect(m_types, &QLineEdit::textEdited, this, stale);
    connect(m_elements, &QCheckBox::toggled, this, stale);
    connect(m_action, &QComboBox::currentIndexChanged, this, stale);
    connect(m_level, &QComboBox::currentIndexChanged, this, stale);
    connect(m_violations, &QTableWidget::cellDoubleClicked, this, [this](int row) {
        if (const QTableWidgetItem *id = m_violations->item(row, 0))
            emit documentRequested(m_source, id->text());
    });
    check();
}

GuardRule TypeGuardDialog::rule() const
{
    QStringList types;
    for (const QString &type : m_types->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        types << type.trimmed();
    return GuardRule::bsonType(m_suggested.path, types, m_elements->isChecked());
}

GuardRequest TypeGuardDialog::request() const
{
    GuardRequest request;
    request.action = m_action->currentIndex() == 1 ? GuardAction::Error : GuardAction::Warn;
    request.level =
        m_level->currentIndex() == 1 ? ValidationLevel::Strict : ValidationLevel::Moderate;
    return request;
}

void TypeGuardDialog::setBusy(const QString &status)
{
    m_apply->setEnabled(false);
    m_status->setText(status);
}

void TypeGuardDialog::check()
{
    setBusy(tr("Counting the documents that break it…"));
    const SourceRef source = m_source;
    const GuardRule chosen = rule();
    const GuardRequest asked = request();
    m_job->start(
        [source, chosen, asked] {
            return GuardSession::plan(source.settings, source.database, source.collection, chosen,
                                      asked);
        },
        [this](const GuardPlan &plan) { showPlan(plan); });
}

// The first plan opens on the collection's own action and level where they are stronger than
// the defaults (a guard never sets them lower): error where it refuses writes, strict where it
// checks every write; then the plan is made again for them.
bool TypeGuardDialog::takeCollectionsSettings(const GuardPlan &plan)
{
    if (m_planned || plan.error.isError())
        return false;
    m_planned = true;
    const ValidationSettings &own = plan.current;
    if (!own.hasRule() || !own.isKnown())
        return false;
    bool changed = false;
    if (own.enforces() &&
        (own.action == ValidationAction::Error || own.action == ValidationAction::ErrorAndLog) &&
        m_action->currentIndex() != 1) {
        m_action->setCurrentIndex(1);
        changed = true;
    }
    if (own.level == ValidationLevel::Strict && m_level->currentIndex() != 1) {
        m_level->setCurrentIndex(1);
        changed = true;
    }
    return changed;
}

void TypeGuardDialog::showPlan(const GuardPlan &plan)
{
    if (takeCollectionsSettings(plan)) {
        check();
        return;
    }
    m_plan = plan;
    m_violations->setRowCount(0);
    const QByteArray json = plan.collModJson.toUtf8();
    m_command->setPlainText(
        QString::fromStdString(JsonIndenter::indent(json.constData(), std::size_t(json.size()))));
    if (plan.error.isError()) {
        m_summary->clear();
        m_status->setText(plan.error.message);
        emit planned(false);
        return;
    }
    QStringList lines;
    lines << tr("%1 breaking “%2” now%3.")
                 .arg(plan.ruleConflicts == 1 ? tr("1 document")
                                              : tr("%1 documents").arg(plan.ruleConflicts),
                      plan.rule.describe(),
                      plan.ruleConflicts > qint64(plan.violations.size()) &&
                              !plan.violations.empty()
                          ? tr(" (the first %1 listed)").arg(plan.violations.size())
                          : QString());
    if (plan.ruleConflicts > 0)
        lines << (plan.decision.level == ValidationLevel::Strict
                      ? tr("They are left as they are; under validationLevel strict an update "
                           "of one of them is checked too: change them, the guard does not.")
                      : tr("They are left as they are (validationLevel moderate: their updates "
                           "are not checked): change them, the guard does not."));
    for (const QString &kept : plan.keptRules)
        lines << tr("Kept from the guard in place: %1.").arg(kept);
    lines << plan.decision.notes;
    if (!plan.violationsNote.isEmpty())
        lines << tr("Not listed: %1").arg(plan.violationsNote);
    m_summary->setText(lines.join(QLatin1Char('\n')));
    for (const GuardViolation &v : plan.violations) {
        const int row = m_violations->rowCount();
        m_violations->insertRow(row);
        m_violations->setItem(row, 0, new QTableWidgetItem(v.id));
        m_violations->setItem(row, 1, new QTableWidgetItem(v.types.join(QStringLiteral(", "))));
    }
    m_status->setText(plan.decision.block != GuardBlock::None
                          ? plan.decision.blockMessage
                          : tr("With the guard: validationLevel %1, validationAction %2. "
                               "Nothing is written before Apply.")
                                .arg(validationLevelName(plan.decision.level),
                                     validationActionName(plan.decision.action)));
    m_apply->setEnabled(plan.canApply());
    emit planned(plan.canApply());
}

void TypeGuardDialog::apply()
{
    if (!m_plan.canApply())
        return;
    setBusy(tr("Applying the guard…"));
    const SourceRef source = m_source;
    const GuardPlan plan = m_plan;
    m_job->start([source, plan] { return GuardSession::apply(source.settings, plan); },
                 [this](const GuardOutcome &outcome) { showOutcome(outcome); });
}

void TypeGuardDialog::remove()
{
    setBusy(tr("Removing the guard…"));
    const SourceRef source = m_source;
    m_job->start(
        [source] {
            return GuardSession::remove(source.settings, source.database, source.collection);
        },
        [this](const GuardOutcome &outcome) { showOutcome(outcome); });
}

void TypeGuardDialog::showOutcome(const GuardOutcome &outcome)
{
    QStringList lines{outcome.ok ? outcome.message : outcome.error.message};
    lines << outcome.notes;
    m_status->setText(lines.join(QLatin1Char('\n')));
    if (!outcome.collModJson.isEmpty())
        m_command->setPlainText(outcome.collModJson);
    emit finished(outcome);
}

} // namespace oe
