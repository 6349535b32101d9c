#include "dialogs/ExtractOptionsBox.h"

#include "remedy/RemedyRegistry.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>

namespace oe {

ExtractOptionsBox::ExtractOptionsBox(const RewriteConfig &suggested, QWidget *parent)
    : QWidget(parent), m_minBytes(new QSpinBox(this)), m_excerptChars(new QSpinBox(this)),
      m_excerptKeys(new QLineEdit(suggested.excerptKeys.join(QLatin1Char(',')), this)),
      m_side(new QLineEdit(suggested.sideCollection, this)),
      m_flag(new QLineEdit(suggested.flagField, this)),
      m_bucket(new QLineEdit(suggested.bucket, this)),
      m_strings(new QCheckBox(tr("Strin&gs too (as UTF-8 files)"), this)), m_form(nullptr)
{
    m_strings->setChecked(suggested.gridfsStrings);
    m_minBytes->setRange(0, 16 * 1024 * 1024);
    m_minBytes->setSuffix(tr(" bytes"));
    m_minBytes->setValue(int(std::clamp<qint64>(suggested.minBytes, 0, 16 * 1024 * 1024)));
    m_minBytes->setToolTip(tr("Only values of at least this size move (0: every string, binary "
                              "and sub-document)."));
    m_excerptChars->setRange(0, 100000);
    m_excerptChars->setValue(suggested.excerptChars);
    m_excerptChars->setSuffix(tr(" characters"));
    m_excerptKeys->setPlaceholderText(tr("a sub-document's keys kept, comma-separated"));
    m_side->setPlaceholderText(suggested.side());
    m_flag->setPlaceholderText(suggested.flag());
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->addRow(tr("&Moves values of:"), m_minBytes);
    m_form->addRow(tr("E&xcerpt kept:"), m_excerptChars);
    m_form->addRow(tr("Excerpt &keys:"), m_excerptKeys);
    m_form->addRow(tr("&Side collection:"), m_side);
    m_form->addRow(tr("F&lag:"), m_flag);
    m_form->addRow(tr("&Bucket:"), m_bucket);
    m_form->addRow(QString(), m_strings);
    showFor(RemedyRegistry::of(suggested.kind).options());
}

bool ExtractOptionsBox::showFor(Remedy::Options options)
{
    const bool side = options.testFlag(Remedy::Option::SideCollection);
    const bool bucket = options.testFlag(Remedy::Option::Bucket);
    m_form->setRowVisible(m_minBytes, options.testFlag(Remedy::Option::MinBytes));
    for (QWidget *w :
         {static_cast<QWidget *>(m_excerptChars), static_cast<QWidget *>(m_excerptKeys),
          static_cast<QWidget *>(m_side), static_cast<QWidget *>(m_flag)})
        m_form->setRowVisible(w, side);
    for (QWidget *w : {static_cast<QWidget *>(m_bucket), static_cast<QWidget *>(m_strings)})
        m_form->setRowVisible(w, bucket);
    return options.testAnyFlags(Remedy::Option::MinBytes | Remedy::Option::SideCollection |
                                Remedy::Option::Bucket);
}

void ExtractOptionsBox::applyTo(RewriteConfig *config) const
{
    config->minBytes = m_minBytes->value();
    config->excerptChars = m_excerptChars->value();
    const QString keys = m_excerptKeys->text().trimmed();
    config->excerptKeys = keys.isEmpty() ? QStringList() : keys.split(QLatin1Char(','));
    for (QString &key : config->excerptKeys)
        key = key.trimmed();
    config->sideCollection = m_side->text().trimmed();
    config->flagField = m_flag->text().trimmed();
    config->bucket = m_bucket->text().trimmed();
    config->gridfsStrings = m_strings->isChecked();
}

} // namespace oe
