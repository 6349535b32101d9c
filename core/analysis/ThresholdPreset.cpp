#include "analysis/ThresholdPreset.h"

namespace oe {

ThresholdPreset ThresholdPreset::compass()
{
    return {QStringLiteral("compass"), 10u * 1024u * 1024u, 249,
            QStringLiteral("MongoDB Compass: arrays of 250+ elements, documents over 10 MiB")};
}

ThresholdPreset ThresholdPreset::atlas()
{
    return {QStringLiteral("atlas"), 2u * 1024u * 1024u, 10000,
            QStringLiteral(
                "Atlas Performance Advisor: arrays over 10,000 entries, documents over 2 MiB")};
}

ThresholdPreset ThresholdPreset::halfLimit()
{
    return {
        QStringLiteral("half-limit"), kMaxBsonBytes / 2, 10000,
        QStringLiteral("documents over 8 MiB, half of MongoDB's 16 MiB limit; arrays over 10,000")};
}

std::optional<ThresholdPreset> ThresholdPreset::byName(const QString &name)
{
    for (const auto &p : {compass(), atlas(), halfLimit()}) {
        if (p.name.compare(name, Qt::CaseInsensitive) == 0)
            return p;
    }
    return std::nullopt;
}

QStringList ThresholdPreset::names()
{
    return {compass().name, atlas().name, halfLimit().name};
}

} // namespace oe
