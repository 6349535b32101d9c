#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace oe {

// Thresholds people already know from MongoDB's own tools. Array thresholds are "longer than".
struct ThresholdPreset
{
    QString name;
    std::uint64_t documentBytes; // documents larger than this
    std::uint64_t arrayLength;   // arrays longer than this
    QString description;

    static constexpr std::uint64_t kMaxBsonBytes = 16u * 1024u * 1024u; // MongoDB's hard limit
    static ThresholdPreset compass();   // warns at arrays of 250+ elements, documents over 10 MB
    static ThresholdPreset atlas();     // flags arrays over 10,000 entries, documents over 2 MB
    static ThresholdPreset halfLimit(); // documents over half of 16 MiB
    static std::optional<ThresholdPreset> byName(const QString &name);
    static QStringList names();
};

} // namespace oe
