#include "pages/SchemaVersionsBox.h"

#include "charts/VersionsText.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>

namespace oe {

namespace {

enum Role
{
    VersionsRole = Qt::UserRole,
    FieldRole
};

} // namespace

SchemaVersionsBox::SchemaVersionsBox(QWidget *parent)
    : QWidget(parent), m_field(new QComboBox(this)), m_shares(new QLabel(this))
{
    m_field->setEditable(true);
    m_field->setInsertPolicy(QComboBox::NoInsert);
    m_field->setMinimumContentsLength(18);
    m_field->setToolTip(tr("The top-level field that holds each document's schema version: rare "
                           "fields and mixed types are judged within each version. Type another "
                           "field's name and press Enter; analyse again to count it."));
    m_shares->setWordWrap(true);
    m_shares->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Schema versions by"), this));
    layout->addWidget(m_field);
    layout->addWidget(m_shares, 1);
    connect(m_field, &QComboBox::activated, this, &SchemaVersionsBox::choose);
    connect(m_field->lineEdit(), &QLineEdit::returnPressed, this, &SchemaVersionsBox::typed);
    clear();
}

void SchemaVersionsBox::clear()
{
    const QSignalBlocker block(m_field);
    m_field->clear();
    m_field->setEnabled(false);
    m_shares->clear();
}

void SchemaVersionsBox::show(const ShapeReport &shape)
{
    clear();
    if (!shape.measured)
        return;
    const SchemaVersions &v = shape.versions;
    const ShapeOptions &options = shape.options;
    const QSignalBlocker block(m_field);
    m_field->setEnabled(true);
    m_field->addItem(v.source == SchemaVersions::Source::Detected && v.inEffect()
                         ? tr("%1 (found)").arg(QString::fromStdString(v.field))
                         : tr("(find it)"),
                     int(ShapeOptions::Versions::Detect));
    QStringList names = v.candidates;
    const QString named = QString::fromStdString(options.versionField);
    if (options.versions == ShapeOptions::Versions::Named && !names.contains(named))
        names << named;
    for (const QString &name : names) {
        m_field->addItem(name, int(ShapeOptions::Versions::Named));
        m_field->setItemData(m_field->count() - 1, name, FieldRole);
    }
    m_field->addItem(tr("(none)"), int(ShapeOptions::Versions::Off));
    int current = 0;
    if (options.versions == ShapeOptions::Versions::Off)
        current = m_field->count() - 1;
    else if (options.versions == ShapeOptions::Versions::Named)
        current = m_field->findData(named, FieldRole);
    m_field->setCurrentIndex(std::max(0, current));
    if (!v.inEffect()) {
        m_shares->setText(v.note);
        return;
    }
    QString text = tr("%1. %n of the whole collection's flags are differences between versions: "
                      "explained, not counted.",
                      nullptr, int(shape.explained()))
                       .arg(VersionsText::shares(v));
    if (v.history.size() >= 2)
        text += QLatin1Char(' ') + VersionsText::history(v);
    m_shares->setText(text);
}

void SchemaVersionsBox::choose(int index)
{
    const auto versions = ShapeOptions::Versions(m_field->itemData(index).toInt());
    emit versionsChosen(versions, m_field->itemData(index, FieldRole).toString().toStdString());
}

// A name typed in: a top-level field a filter can hold.
void SchemaVersionsBox::typed()
{
    const QString name = m_field->currentText().trimmed();
    if (const int known = m_field->findText(name); known >= 0) {
        m_field->setCurrentIndex(known);
        choose(known);
        return;
    }
    if (name.isEmpty() || name.contains(QLatin1Char('.')) || name.startsWith(QLatin1Char('$'))) {
        m_shares->setText(tr("A version field is a top-level field name, without a dot or a "
                             "leading $."));
        return;
    }
    emit versionsChosen(ShapeOptions::Versions::Named, name.toStdString());
}

} // namespace oe
