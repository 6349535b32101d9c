#include "stats/OutlierMethod.h"

namespace oe {

QString methodName(OutlierMethod method)
{
    switch (method) {
    case OutlierMethod::Absolute:
        return QStringLiteral("absolute");
    case OutlierMethod::Percentile:
        return QStringLiteral("percentile");
    case OutlierMethod::Iqr:
        return QStringLiteral("iqr");
    case OutlierMethod::Mad:
        return QStringLiteral("mad");
    }
    return {};
}

std::optional<OutlierMethod> methodFromName(const QString &name)
{
    for (auto m : {OutlierMethod::Absolute, OutlierMethod::Percentile, OutlierMethod::Iqr,
                   OutlierMethod::Mad}) {
        if (name.compare(methodName(m), Qt::CaseInsensitive) == 0)
            return m;
    }
    return std::nullopt;
}

} // namespace oe
