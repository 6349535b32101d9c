#include "dialogs/WatchDialog.h"

#include "charts/Format.h"
#include "dialogs/TableCell.h"
#include "jobs/WatchRunner.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSystemTrayIcon>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace oe {

WatchDialog::WatchDialog(const SourceRef &source, std::uint64_t sizeThreshold, const QString &field,
                         std::uint64_t keep, QWidget *parent)
    : QDialog(parent), m_source(source), m_size(new QSpinBox(this)), m_field(new QLineEdit(this)),
      m_keep(new QSpinBox(this)), m_interval(new QSpinBox(this)),
      m_desktop(new QCheckBox(tr("Notify on the &desktop when a document crosses"), this)),
      m_start(new QPushButton(tr("&Start watching"), this)),
      m_stop(new QPushButton(tr("S&top"), this)), m_events(new QTableWidget(this)),
      m_status(new QLabel(this)), m_runner(new WatchRunner(this))
{
    setWindowTitle(tr("Watch — %1").arg(source.displayName()));
    resize(900, 560);
    m_size->setRange(0, INT_MAX);
    m_size->setSuffix(tr(" bytes"));
    m_size->setSpecialValueText(tr("not watched"));
    m_size->setGroupSeparatorShown(true);
    m_size->setValue(int(std::min<std::uint64_t>(sizeThreshold, INT_MAX)));
    m_field->setText(field);
    m_field->setPlaceholderText(tr("array path, e.g. comments"));
    m_keep->setRange(0, INT_MAX);
    m_keep->setGroupSeparatorShown(true);
    m_keep->setValue(int(std::min<std::uint64_t>(keep, INT_MAX)));
    m_interval->setRange(1, 86400);
    m_interval->setValue(60);
    m_interval->setSuffix(tr(" s"));
    m_interval->setToolTip(tr("Without a change stream (a standalone server, FerretDB): how "
                              "often the collection is checked."));
    m_desktop->setChecked(true);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const QStringList headers = {tr("When (UTC)"), tr("_id"),          tr("Operation"),
                                 tr("Size"),       tr("Array length"), tr("Over")};
    m_events->setColumnCount(int(headers.size()));
    m_events->setHorizontalHeaderLabels(headers);
    m_events->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_events->verticalHeader()->hide();
    m_events->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_events->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_events->setToolTip(tr("Double-click a row to open the document."));

    auto *form = new QFormLayout;
    form->addRow(tr("Document si&ze over:"), m_size);
    auto *arrayRow = new QHBoxLayout;
    arrayRow->addWidget(m_field, 1);
    auto *keepLabel = new QLabel(tr("longer than &keep:"), this);
    keepLabel->setBuddy(m_keep);
    arrayRow->addWidget(keepLabel);
    arrayRow->addWidget(m_keep);
    form->addRow(tr("&Array:"), arrayRow);
    if (auto *label = qobject_cast<QLabel *>(form->labelForField(arrayRow)))
        label->setBuddy(m_field);
    form->addRow(tr("&Check every:"), m_interval);
    form->addRow(QString(), m_desktop);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(m_events, 1);
    layout->addWidget(close);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_start, &QPushButton::clicked, this, &WatchDialog::start);
    connect(m_stop, &QPushButton::clicked, this, &WatchDialog::stop);
    connect(m_runner, &WatchRunner::event, this, &WatchDialog::addEvent);
    connect(m_runner, &WatchRunner::status, m_status, &QLabel::setText);
    connect(m_runner, &WatchRunner::finished, this, &WatchDialog::finished);
    connect(m_events, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (const QTableWidgetItem *id = m_events->item(row, 1))
            emit documentRequested(m_source, id->text());
    });
    m_status->setText(tr("Each document of %1 that crosses a threshold will be listed here as it "
                         "does.")
                          .arg(source.displayName()));
    updateButtons();
}

WatchDialog::~WatchDialog()
{
    m_runner->stop();
}

WatchOptions WatchDialog::options() const
{
    WatchOptions o;
    o.settings = m_source.settings;
    o.database = m_source.database;
    o.collection = m_source.collection;
    o.sizeThreshold = std::uint64_t(m_size->value());
    o.field = m_field->text().trimmed();
    o.keep = std::uint64_t(m_keep->value());
    o.intervalMs = m_interval->value() * 1000;
    return o;
}

void WatchDialog::start()
{
    const WatchOptions o = options();
    if (const QStringList problems = o.problems(); !problems.isEmpty()) {
        m_status->setText(problems.first());
        return;
    }
    m_status->setText(tr("Starting the watch…"));
    m_runner->start(o);
    updateButtons();
}

void WatchDialog::stop()
{
    m_runner->stop();
    m_status->setText(tr("Stopping…"));
}

bool WatchDialog::isWatching() const
{
    return m_runner->isRunning();
}

void WatchDialog::finished(const WatchEnd &end)
{
    switch (end.reason) {
    case WatchEnd::Reason::Stopped:
        m_status->setText(tr("Stopped."));
        break;
    case WatchEnd::Reason::Failed:
        m_status->setText(tr("The watch stopped: %1").arg(end.message()));
        break;
    default: // the collection is gone: the watch is over
        m_status->setText(tr("The watch ended: %1").arg(end.message()));
        break;
    }
    updateButtons();
}

void WatchDialog::updateButtons()
{
    const bool running = m_runner->isRunning();
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    for (QWidget *w : std::initializer_list<QWidget *>{m_size, m_field, m_keep, m_interval})
        w->setEnabled(!running);
}

void WatchDialog::addEvent(const WatchEvent &e)
{
    QStringList over;
    if (e.overSize)
        over << tr("size");
    if (e.overArray)
        over << tr("array");
    m_events->insertRow(0);
    m_events->setItem(0, 0, tableCell(e.at.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))));
    m_events->setItem(0, 1, tableCell(e.id));
    m_events->setItem(0, 2, tableCell(e.operation));
    m_events->setItem(0, 3, tableCell(Format::bytes(e.size), true));
    m_events->setItem(
        0, 4, tableCell(e.length >= 0 ? Format::count(std::uint64_t(e.length)) : QString(), true));
    m_events->setItem(0, 5, tableCell(over.join(QStringLiteral(", "))));
    notify(e);
}

void WatchDialog::notify(const WatchEvent &e)
{
    const QString text = tr("%1: _id %2 crossed (%3%4)")
                             .arg(m_source.displayName(), e.id, Format::bytes(e.size),
                                  e.length >= 0 ? tr(", %1 elements").arg(e.length) : QString());
    if (m_desktop->isChecked()) {
        if (QSystemTrayIcon::isSystemTrayAvailable()) {
            if (!m_tray) {
                m_tray = new QSystemTrayIcon(QApplication::windowIcon(), this);
                m_tray->show();
            }
            m_tray->showMessage(tr("Outlier Explorer watch"), text);
        } else {
            QApplication::alert(this);
        }
    }
    emit notified(text);
}

} // namespace oe
