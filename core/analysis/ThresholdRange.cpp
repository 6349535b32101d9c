#include "analysis/ThresholdRange.h"

#include <QLocale>

namespace oe {

QString ThresholdRange::maximumText()
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions); // C omits the group separator
    return c.toString(qulonglong(kMaximum));
}

QString ThresholdRange::aboveMaximum(const QString &typed)
{
    return QStringLiteral("%1 is above the largest threshold, %2.").arg(typed, maximumText());
}

} // namespace oe
