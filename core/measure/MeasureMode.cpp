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
    if (word == QLatin1String("cluster"))
        return MeasureMode::Cluster;
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
    case MeasureMode::Cluster:
        return QStringLiteral("cluster");
    }
    return {};
}

} // namespace oe
