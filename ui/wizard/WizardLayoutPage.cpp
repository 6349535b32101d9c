#include "wizard/WizardLayoutPage.h"

#include "bson/BsonTypes.h"
#include "jobs/LatestJob.h"
#include "migration/MigrationSession.h"
#include "split/PatternFields.h"
#include "split/SplitLayoutPreset.h"
#include "wizard/MigrationWizard.h"
#include "workspace/SourceState.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <utility>
#include <vector>

namespace oe {

WizardLayoutPage::WizardLayoutPage(MigrationWizard *wizard)
    : QWizardPage(wizard), m_wizard(wizard), m_preset(new QComboBox(this)),
      m_presetNote(new QLabel(this)), m_overflow(new QLineEdit(this)), m_link(new QLineEdit(this)),
      m_page(new QLineEdit(this)), m_items(new QLineEdit(this)), m_flag(new QLineEdit(this)),
      m_count(new QLineEdit(this)), m_pages(new QLineEdit(this)), m_pageSize(new QSpinBox(this)),
      m_problems(new QLabel(this)), m_serverStatus(new QLabel(this)), m_debounce(new QTimer(this)),
      m_serverCheck(new LatestJob(this))
{
    setTitle(tr("Layout"));
    setSubTitle(tr("Where the moved elements go and how the application finds them."));
    for (SplitLayoutPreset p : splitlayout::all())
        m_preset->addItem(splitlayout::label(p), int(p));
    m_presetNote->setWordWrap(true);
    m_pageSize->setRange(1, 1000000);
    m_pageSize->setGroupSeparatorShown(true);
    m_count->setPlaceholderText(tr("default <field>_count; the write path's slot counter"));
    m_pages->setPlaceholderText(tr("optional, e.g. overflowPages"));
    m_items->setPlaceholderText(tr("the array's own name"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::PlainText);
    m_problems->setStyleSheet(QStringLiteral("color: #b3261e"));
    m_serverStatus->setWordWrap(true);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(400);
    connect(m_debounce, &QTimer::timeout, this, &WizardLayoutPage::checkOnServer);
    const QList<QPair<QString, QLineEdit *>> names{
        {QStringLiteral("overflow"), m_overflow}, {QStringLiteral("link"), m_link},
        {QStringLiteral("page"), m_page},         {QStringLiteral("items"), m_items},
        {QStringLiteral("flag"), m_flag},         {QStringLiteral("count"), m_count},
        {QStringLiteral("pages"), m_pages}};
    for (const auto &[name, edit] : names) {
        edit->setObjectName(name);
        connect(edit, &QLineEdit::textChanged, this, &WizardLayoutPage::changed);
    }
    auto *form = new QFormLayout;
    form->addRow(tr("P&reset:"), m_preset);
    form->addRow(QString(), m_presetNote);
    form->addRow(tr("&Overflow collection:"), m_overflow);
    form->addRow(tr("&Link field (the parent's _id):"), m_link);
    form->addRow(tr("Pa&ge number field:"), m_page);
    form->addRow(tr("&Items field (the moved elements):"), m_items);
    form->addRow(tr("&Flag field (set to true):"), m_flag);
    form->addRow(tr("&Count field (total length):"), m_count);
    form->addRow(tr("Pages fiel&d (number of pages):"), m_pages);
    form->addRow(tr("Elements per &page:"), m_pageSize);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problems);
    layout->addWidget(m_serverStatus);
    layout->addStretch(1);
    connect(m_preset, &QComboBox::activated, this, &WizardLayoutPage::applyPreset);
    connect(m_pageSize, &QSpinBox::valueChanged, this, [this](int v) {
        if (!m_setting && m_wizard->state())
            m_wizard->state()->setPageSize(std::uint64_t(v));
        changed();
    });
}

QLineEdit *WizardLayoutPage::edit(const QString &name) const
{
    return findChild<QLineEdit *>(name);
}

void WizardLayoutPage::initializePage()
{
    show(m_wizard->config());
}

void WizardLayoutPage::applyPreset(int index)
{
    const auto preset = SplitLayoutPreset(m_preset->itemData(index).toInt());
    m_presetNote->setText(splitlayout::description(preset));
    const SplitConfig c = splitlayout::apply(preset, m_wizard->config());
    if (SourceState *state = m_wizard->state()) {
        state->setKeep(std::uint64_t(c.keep));
        state->setPageSize(std::uint64_t(c.pageSize));
    }
    show(c);
    m_wizard->appendLog(tr("Layout preset: %1").arg(m_preset->itemText(index)));
}

void WizardLayoutPage::show(const SplitConfig &c)
{
    m_setting = true;
    m_overflow->setText(c.overflowCollection);
    m_link->setText(c.linkField);
    m_page->setText(c.pageField);
    m_items->setText(c.itemsField);
    m_flag->setText(c.flagField);
    m_count->setText(c.countField);
    m_pages->setText(c.pagesField);
    m_pageSize->setValue(int(std::min<std::int64_t>(c.pageSize, m_pageSize->maximum())));
    m_setting = false;
    changed();
}

SplitConfig WizardLayoutPage::layout() const
{
    SplitConfig c = m_wizard->config();
    c.overflowCollection = m_overflow->text().trimmed();
    c.linkField = m_link->text().trimmed();
    c.pageField = m_page->text().trimmed();
    c.itemsField = m_items->text().trimmed();
    c.flagField = m_flag->text().trimmed();
    c.countField = m_count->text().trimmed();
    c.pagesField = m_pages->text().trimmed();
    c.pageSize = m_pageSize->value();
    return c;
}

namespace {

// A field the split writes on the primary that the analysed documents already have.
struct ExistingField
{
    QString name;
    std::uint64_t documents = 0;
    QString types;      // "bool", "int, long", …
    bool patternValues; // what the pattern itself writes there (PatternFields)
};

std::vector<ExistingField> existingFields(const SplitConfig &c, const CollectionProfile &profile)
{
    using Role = PatternFields::Role;
    const std::pair<QString, Role> fields[] = {
        {c.flagField, Role::Flag}, {c.countField, Role::Count}, {c.pagesField, Role::Pages}};
    std::vector<ExistingField> out;
    for (const auto &[name, role] : fields) {
        const FieldProfile *f = name.isEmpty() ? nullptr : profile.field(name.toStdString());
        if (f && f->presentDocuments)
            out.push_back({name, f->presentDocuments,
                           BsonTypes::names(f->typeMask).join(QStringLiteral(", ")),
                           PatternFields::holdsPatternValues(role, f->typeMask)});
    }
    return out;
}

} // namespace

// SplitConfig's own rules, then the primary's new fields against the analysed documents.
QStringList WizardLayoutPage::problems() const
{
    const SplitConfig c = layout();
    QStringList out;
    if (c.overflowCollection.isEmpty())
        out << tr("the overflow collection needs a name");
    out << c.problems();
    if (!m_wizard->state())
        return out;
    for (const ExistingField &f : existingFields(c, m_wizard->state()->analysis().profile))
        if (!f.patternValues)
            out << tr("%1 already exists in %2 analysed document(s) with values the pattern does "
                      "not write (%3): the split would overwrite it")
                       .arg(f.name)
                       .arg(f.documents)
                       .arg(f.types);
    return out;
}

// Existing fields that hold what the pattern writes (the generated write path flags and counts a
// document as it overflows, before any split): said, not refused.
QStringList WizardLayoutPage::notes() const
{
    QStringList out;
    if (!m_wizard->state())
        return out;
    for (const ExistingField &f : existingFields(layout(), m_wizard->state()->analysis().profile))
        if (f.patternValues)
            out << tr("Note: %1 already holds %2 values in %3 analysed document(s) (the write path "
                      "keeps it); the split sets it again in the documents it splits.")
                       .arg(f.name, f.types)
                       .arg(f.documents);
    return out;
}

QString WizardLayoutPage::problemText() const
{
    return m_problems->text();
}

void WizardLayoutPage::changed()
{
    if (m_setting)
        return;
    const bool valid = problems().isEmpty();
    if (valid)
        m_wizard->setLayout(layout());
    m_serverCheck->cancel();
    m_serverProblem.clear();
    m_checking = valid && m_wizard->isLive();
    if (m_checking)
        m_debounce->start();
    else
        m_debounce->stop();
    showProblems();
    emit completeChanged();
}

void WizardLayoutPage::checkOnServer()
{
    const SourceRef source = m_wizard->source();
    const SplitConfig config = layout();
    m_serverCheck->start(
        [source, config] {
            MigrationSession session(source, config);
            SourceError error;
            session.checkLayout(&error);
            return error;
        },
        [this](const SourceError &error) {
            m_checking = false;
            if (error.isError())
                m_serverProblem =
                    error.kind == SourceError::Kind::Usage
                        ? error.message
                        : tr("could not check the overflow collection: %1").arg(error.toString());
            showProblems();
            emit completeChanged();
        });
}

void WizardLayoutPage::showProblems()
{
    QStringList list = problems();
    if (!m_serverProblem.isEmpty())
        list << m_serverProblem;
    m_problems->setText((list + notes()).join(QLatin1Char('\n')));
    m_serverStatus->setText(
        m_checking ? tr("Checking the overflow collection and earlier runs on the server…")
        : m_wizard->isLive() && list.isEmpty()
            ? tr("✔ The server has no objection: the overflow collection is empty or this "
                 "field's, and no other run is in the way.")
            : QString());
}

bool WizardLayoutPage::isComplete() const
{
    return problems().isEmpty() && !m_checking && m_serverProblem.isEmpty();
}

} // namespace oe
