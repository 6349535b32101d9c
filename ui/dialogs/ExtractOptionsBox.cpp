#include "dialogs/ExtractOptionsBox.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>

namespace oe {

ExtractOptionsBox::ExtractOptionsBox(const RewriteConfig &suggested, QWidget *parent)
    : QWidget(parent), m_minBytes(new QSpinBox(this)), m_excerptChars(new QSpinBox(this)),
      m_excerptKeys(new QLineEdit(suggested.excerptKeys.join(QLatin1Char(',')), this)),
      m_side(new QLineEdit(suggested.sideCollection, this)),
      m_flag(new QLineEdit(suggested.flagField, this))
{
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
    auto *form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("&Moves values of:"), m_minBytes);
    form->addRow(tr("E&xcerpt kept:"), m_excerptChars);
    form->addRow(tr("Excerpt &keys:"), m_excerptKeys);
    form->addRow(tr("&Side collection:"), m_side);
    form->addRow(tr("F&lag:"), m_flag);
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
}

} // namespace oe
