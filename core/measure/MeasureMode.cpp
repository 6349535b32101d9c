#include "measure/MeasureMode.h"

namespace oe {

std::optional<MeasureMode> measureModeFrom(const QString &word)
{
    if (word == QLatin1String("auto"))
        return MeasureMode::Auto;
    if (word == QLatin1String("server"))
        return MeasureMode::Server;
    if (word == QLatin1String("client"))
        return MeasureMode::Client;
    return std::nullopt;
}

QString measureModeName(MeasureMode mode)
{
    switch (mode) {
    case MeasureMode::Auto:
        return QStringLiteral("auto");
    case MeasureMode::Server:
        return QStringLiteral("server");
    case MeasureMode::Client:
        return QStringLiteral("client");
    }
    return {};
}

} // namespace oe
