#include "ShapeCliOptions.h"

#include "CliSupport.h"

#include <cstdio>
#include <optional>

namespace cli {

void addShapeOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("rare-share"),
         QStringLiteral("A field in under PCT % of the documents is rare (default 1)."),
         QStringLiteral("PCT")},
        {QStringLiteral("mixed-share"),
         QStringLiteral("A type with under PCT % of a path's values is a minority type (default "
                        "10)."),
         QStringLiteral("PCT")},
        {QStringLiteral("big-scalar-bytes"),
         QStringLiteral("Strings and binaries larger than BYTES are big scalars (default 262144)."),
         QStringLiteral("BYTES")},
    });
}

bool shapeFrom(const QCommandLineParser &parser, oe::ShapeOptions *options)
{
    double rare = options->rareShare * 100, mixed = options->mixedShare * 100;
    std::optional<std::uint64_t> big;
    if (!doubleOption(parser, QStringLiteral("rare-share"), rare, 0, 100) ||
        !doubleOption(parser, QStringLiteral("mixed-share"), mixed, 0, 100) ||
        !unsignedOption(parser, QStringLiteral("big-scalar-bytes"), big, 1, 16 * 1024 * 1024))
        return false;
    options->rareShare = rare / 100;
    options->mixedShare = mixed / 100;
    if (big)
        options->bigScalarBytes = *big;
    return true;
}

void printShape(const oe::ShapeReport &report)
{
    if (!report.measured) {
        std::printf("%s\n", qPrintable(report.why));
        return;
    }
    using Kind = oe::ShapeFlag::Kind;
    const std::pair<Kind, const char *> kinds[] = {
        {Kind::RareField, "rare fields"},
        {Kind::MixedTypes, "mixed types"},
        {Kind::MixedElementTypes, "mixed element types"},
        {Kind::KeysAsData, "keys used as data"},
        {Kind::BigScalar, "big scalars"},
        {Kind::ManyFields, "many-field outliers"},
        {Kind::DeepNesting, "deep-nesting outliers"},
    };
    QStringList parts;
    for (const auto &[kind, name] : kinds)
        if (const std::size_t n = report.count(kind))
            parts << QStringLiteral("%1 %2").arg(n).arg(QLatin1String(name));
    std::printf("shape: %s\n",
                parts.isEmpty() ? "no outliers" : qPrintable(parts.join(QStringLiteral(", "))));
}

} // namespace cli
