#include "dialogs/RewriteDialog.h"

#include "charts/Format.h"
#include "dialogs/ExtractOptionsBox.h"
#include "jobs/LatestJob.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/RewriteSession.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace oe {

namespace {

QString outcomeText(RewriteRow::Kind kind)
{
    switch (kind) {
    case RewriteRow::Kind::Change:
        return QObject::tr("change");
    case RewriteRow::Kind::Cannot:
        return QObject::tr("left as it is");
    case RewriteRow::Kind::ChangedSince:
        return QObject::tr("the application's value kept");
    case RewriteRow::Kind::Deleted:
        return QObject::tr("deleted");
    case RewriteRow::Kind::Mismatch:
        return QObject::tr("mismatch");
    }
    return {};
}

QLabel *plainLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText); // names and values are data
    label->setWordWrap(true);
    return label;
}

} // namespace

RewriteDialog::RewriteDialog(const SourceRef &source, const RewriteConfig &suggested,
                             QWidget *parent)
    : QDialog(parent), m_source(source), m_suggested(suggested), m_kind(new QComboBox(this)),
      m_type(new QComboBox(this)), m_keyName(new QLineEdit(suggested.keyName, this)),
      m_valueName(new QLineEdit(suggested.valueName, this)),
      m_newName(new QLineEdit(suggested.newName, this)),
      m_extract(new ExtractOptionsBox(suggested, this)), m_fields(new QListWidget(this)),
      m_rows(new QTableWidget(0, 4, this)), m_status(plainLabel(QString(), this)),
      m_progress(new QProgressBar(this)), m_preview(new QPushButton(tr("&Preview"), this)),
      m_apply(new QPushButton(tr("&Apply"), this)), m_verify(new QPushButton(tr("&Verify"), this)),
      m_rollback(new QPushButton(tr("&Roll back"), this)),
      m_resume(new QPushButton(tr("Res&ume"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_job(new LatestJob(this))
{
    setWindowTitle(tr("Rewrite: %1").arg(suggested.path));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(860, 580);
    // Every remedy, in the registry's order; one that rewrites another scope than the
    // suggested one (a family's fields, one field) is listed but not offered.
    const Remedy &suggestedRemedy = RemedyRegistry::of(suggested.kind);
    const bool family = suggestedRemedy.scope() == Remedy::Scope::FieldFamily;
    auto *model = qobject_cast<QStandardItemModel *>(m_kind->model());
    for (const Remedy *remedy : RemedyRegistry::all()) {
        m_kind->addItem(remedy->label(), int(remedy->kind()));
        if (model && remedy->scope() != suggestedRemedy.scope())
            model->item(m_kind->count() - 1)->setEnabled(false);
    }
    m_kind->setCurrentIndex(m_kind->findData(int(suggested.kind)));
    m_newName->setPlaceholderText(tr("the field's new name"));
    m_type->addItems(RewriteConfig::convertibleTypes());
    // The attribute rewrite's fields: all of the family checked; uncheck those to keep as they
    // are (a field every query names, say).
    for (const QString &field : suggested.fields) {
        auto *item = new QListWidgetItem(field, m_fields);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Checked);
    }
    m_fields->setObjectName(QStringLiteral("attributeFields"));
    m_fields->setFlow(QListView::LeftToRight);
    m_fields->setWrapping(true);
    m_fields->setMaximumHeight(96);
    m_fields->setVisible(family);
    m_type->setCurrentText(suggested.targetType.isEmpty() ? QStringLiteral("double")
                                                          : suggested.targetType);
    m_rows->setHorizontalHeaderLabels({tr("_id"), tr("Outcome"), tr("Before"), tr("After / why")});
    m_rows->horizontalHeader()->setStretchLastSection(true);
    m_rows->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_rows->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_rows->setColumnWidth(2, 320);
    m_rows->verticalHeader()->hide();
    m_rows->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_rows->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_progress->setRange(0, 0);
    m_progress->hide();

    auto *form = new QFormLayout;
    m_form = form;
    form->addRow(tr("Field:"),
                 plainLabel(family ? tr("%1.%2: the fields checked below → %3")
                                         .arg(source.database, source.collection, suggested.path)
                                   : QStringLiteral("%1.%2 → %3")
                                         .arg(source.database, source.collection, suggested.path),
                            this));
    form->addRow(tr("&Rewrite:"), m_kind);
    if (family)
        form->addRow(tr("F&ields:"), m_fields);
    form->addRow(tr("&Type:"), m_type);
    auto *names = new QHBoxLayout;
    m_names = names;
    names->addWidget(m_keyName);
    names->addWidget(m_valueName);
    form->addRow(tr("Element fields:"), names);
    form->addRow(tr("&New name:"), m_newName);
    form->addRow(m_extract);
    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {m_preview, m_apply, m_resume, m_verify, m_rollback})
        buttons->addWidget(b);
    m_resume->setToolTip(tr("Finish the interrupted rewrite in the journal, as it was begun"));
    m_resume->hide();
    buttons->addStretch(1);
    buttons->addWidget(m_progress);
    buttons->addWidget(m_cancel);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_rows, 1);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    layout->addWidget(close);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &RewriteDialog::updateKind);
    connect(m_preview, &QPushButton::clicked, this, [this] { run(Action::Preview); });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (QMessageBox::question(this, tr("Rewrite"),
                                  tr("Rewrite %1 in %2.%3? Each value is journaled first; Roll "
                                     "back puts them back.")
                                      .arg(config().describe(), m_source.database,
                                           m_source.collection)) == QMessageBox::Yes)
            run(Action::Apply);
    });
    connect(m_resume, &QPushButton::clicked, this, [this] {
        if (m_interrupted &&
            QMessageBox::question(this, tr("Rewrite"),
                                  tr("Finish the interrupted %1 in %2.%3, as it was begun?")
                                      .arg(m_interrupted->describe(), m_source.database,
                                           m_source.collection)) == QMessageBox::Yes)
            resume();
    });
    connect(m_newName, &QLineEdit::returnPressed, this, [this] { run(Action::Preview); });
    connect(m_verify, &QPushButton::clicked, this, [this] { run(Action::Verify); });
    connect(m_rollback, &QPushButton::clicked, this, [this] { run(Action::Rollback); });
    connect(m_cancel, &QPushButton::clicked, this, &RewriteDialog::cancel);
    updateKind();
    setRunning(false);
    // A rewrite waiting for the user's word (a rename's new name) asks for it first.
    if (suggestedRemedy.options().testFlag(Remedy::Option::NewName) &&
        suggested.newName.isEmpty()) {
        m_status->setText(tr("Type the new name of %1, then Preview (Enter).").arg(suggested.path));
        m_newName->setFocus();
        return;
    }
    run(Action::Preview);
}

RewriteDialog::~RewriteDialog()
{
    if (m_stop)
        m_stop->store(true);
}

QPushButton *RewriteDialog::button(Action action) const
{
    switch (action) {
    case Action::Preview:
        return m_preview;
    case Action::Apply:
        return m_apply;
    case Action::Verify:
        return m_verify;
    case Action::Rollback:
        return m_rollback;
    }
    return nullptr;
}

const Remedy &RewriteDialog::chosenRemedy() const
{
    return RemedyRegistry::of(RewriteKind(m_kind->currentData().toInt()));
}

RewriteConfig RewriteDialog::config() const
{
    RewriteConfig config = m_suggested;
    const Remedy &remedy = chosenRemedy();
    const Remedy::Options options = remedy.options();
    config.kind = remedy.kind();
    config.targetType =
        options.testFlag(Remedy::Option::TargetType) ? m_type->currentText() : QString();
    config.keyName = m_keyName->text();
    config.valueName = m_valueName->text();
    config.newName =
        options.testFlag(Remedy::Option::NewName) ? m_newName->text().trimmed() : QString();
    if (options.testAnyFlags(Remedy::Option::MinBytes | Remedy::Option::SideCollection |
                             Remedy::Option::Bucket))
        m_extract->applyTo(&config);
    if (options.testFlag(Remedy::Option::Fields)) {
        config.fields.clear();
        for (int i = 0; i < m_fields->count(); ++i)
            if (m_fields->item(i)->checkState() == Qt::Checked)
                config.fields << m_fields->item(i)->text();
    }
    return config;
}

void RewriteDialog::updateKind()
{
    const Remedy::Options options = chosenRemedy().options();
    m_type->setEnabled(options.testFlag(Remedy::Option::TargetType));
    m_keyName->setEnabled(options.testFlag(Remedy::Option::KeyValueNames));
    m_valueName->setEnabled(options.testFlag(Remedy::Option::KeyValueNames));
    // The rows of the options the chosen remedy has.
    if (m_form) {
        m_form->setRowVisible(m_type, options.testFlag(Remedy::Option::TargetType));
        m_form->setRowVisible(m_names, options.testFlag(Remedy::Option::KeyValueNames));
        m_form->setRowVisible(m_newName, options.testFlag(Remedy::Option::NewName));
    }
    m_extract->setVisible(m_extract->showFor(options));
}

void RewriteDialog::setRunning(bool running)
{
    for (QPushButton *b : {m_preview, m_apply, m_verify, m_rollback, m_resume})
        b->setEnabled(!running);
    m_kind->setEnabled(!running &&
                       RemedyRegistry::of(m_suggested.kind).scope() == Remedy::Scope::OneField);
    m_extract->setEnabled(!running);
    m_fields->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
}

void RewriteDialog::cancel()
{
    if (m_stop)
        m_stop->store(true);
    m_cancel->setEnabled(false);
    m_status->setText(tr("Stopping after the batch it is writing…"));
}

void RewriteDialog::run(Action action)
{
    const RewriteConfig chosen = config();
    if (const QString problem = chosen.problem(); !problem.isEmpty()) {
        m_status->setText(problem);
        return;
    }
    start(action, chosen);
}

void RewriteDialog::resume()
{
    if (m_interrupted)
        start(Action::Apply, *m_interrupted);
}

void RewriteDialog::start(Action action, const RewriteConfig &chosen)
{
    setRunning(true);
    m_status->setText(tr("Working…"));
    const SourceRef source = m_source;
    m_stop = std::make_shared<std::atomic<bool>>(false);
    m_job->startWithProgress<RewriteProgress>(
        [source, chosen, action, stop = m_stop](const std::atomic<bool> &, const auto &report) {
            RewriteSession session(source.settings, source.database, chosen);
            switch (action) {
            case Action::Preview:
                return session.preview({}, stop.get());
            case Action::Apply:
                return session.apply({}, stop.get(), report);
            case Action::Verify:
                return session.verify();
            case Action::Rollback:
                return session.rollback({}, stop.get(), report);
            }
            return RewriteStep{};
        },
        [this, action](const RewriteStep &step) { showStep(action, step); },
        [this](const RewriteProgress &p) {
            m_status->setText(tr("%1 documents, %2 rewritten…").arg(p.examined).arg(p.rewritten));
        });
}

void RewriteDialog::showRows(const std::vector<RewriteRow> &rows)
{
    m_rows->setRowCount(0);
    for (const RewriteRow &row : rows) {
        const int r = m_rows->rowCount();
        m_rows->insertRow(r);
        const QStringList cells{row.id, outcomeText(row.kind), row.before,
                                row.kind == RewriteRow::Kind::Change ? row.after : row.why};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(cells[c]);
            m_rows->setItem(r, c, item);
        }
    }
}

void RewriteDialog::showStep(Action action, const RewriteStep &step)
{
    m_last = step;
    setRunning(false);
    if (!step.ok) {
        m_status->setText(step.error.message);
        emit finished(action, false);
        return;
    }
    QStringList lines = step.progress.notes;
    if (action == Action::Apply)
        m_interrupted.reset(); // finished, or interrupted again: the next preview says
    m_resume->setVisible(m_interrupted.has_value());
    if (action == Action::Preview) {
        const RewritePreview &p = step.preview;
        showRows(p.rows);
        showInterrupted(step, &lines);
        lines.prepend(tr("%1 documents looked at: %2 to rewrite, %3 already so, %4 left as they "
                         "are (no exact rewrite). Nothing is written before Apply.")
                          .arg(p.examined)
                          .arg(p.changes)
                          .arg(p.unchanged)
                          .arg(p.cannot));
        if (p.changes > 0 && p.bytesBefore > p.bytesAfter)
            lines << tr("The documents shed %1 (the rewritten values: %2 now, %3 after).")
                         .arg(Format::bytes(p.bytesBefore - p.bytesAfter),
                              Format::bytes(p.bytesBefore), Format::bytes(p.bytesAfter));
        if (p.truncated)
            lines << tr("The first %1 are listed (`rewrite --preview-csv FILE` writes them all).")
                         .arg(p.rows.size());
        if (const QString note = chosenRemedy().windowNote(config()); !note.isEmpty())
            lines << note;
    } else if (action == Action::Verify) {
        const RewriteVerify &v = step.verify;
        showRows(v.rows);
        lines.prepend(v.summary());
    } else {
        const RewriteProgress &p = step.progress;
        showRows(p.rows);
        lines.prepend((action == Action::Apply ? tr("Rewritten: %1; left as they are: %2; the "
                                                    "application's writes won: %3; deleted: %4.")
                                                     .arg(p.rewritten)
                                                     .arg(p.cannot)
                                                     .arg(p.changedSince)
                                                     .arg(p.deleted)
                                               : tr("Restored: %1; the application's value kept: "
                                                    "%2; deleted: %3.")
                                                     .arg(p.rewritten)
                                                     .arg(p.changedSince)
                                                     .arg(p.deleted)) +
                      (p.stopped ? tr(" Stopped: run it again to go on.") : QString()));
    }
    m_status->setText(lines.join(QLatin1Char('\n')));
    emit finished(action, true);
}

void RewriteDialog::showInterrupted(const RewriteStep &step, QStringList *lines)
{
    m_interrupted = step.interrupted;
    const bool applying = step.interruptedState == RewriteState::Applying;
    m_resume->setVisible(m_interrupted.has_value() && applying);
    if (!m_interrupted)
        return;
    lines->prepend(applying ? tr("An interrupted %1 is in the journal: Resume finishes it as it "
                                 "was begun; Roll back undoes it.")
                                  .arg(m_interrupted->describe())
                            : tr("An interrupted rollback of %1 is in the journal: Roll back "
                                 "finishes it.")
                                  .arg(m_interrupted->describe()));
}

} // namespace oe
