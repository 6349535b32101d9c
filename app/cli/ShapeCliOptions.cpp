#include "ShapeCliOptions.h"

#include "CliSupport.h"
#include "ExitCode.h"

#include "output/StagedOutput.h"
#include "report/AnatomyReport.h"

#include <QDir>

#include <cstdio>
#include <optional>

namespace cli {

namespace {
constexpr std::uint64_t kMaxAnatomy = 1000; // documents read again for --anatomy
} // namespace

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
        {QStringLiteral("anatomy"),
         QStringLiteral("Also write anatomy.csv: why the N largest outlier documents are big "
                        "(bytes by top-level field, where the weight sits). They are read again: "
                        "a dump once, a collection by their _ids."),
         QStringLiteral("N")},
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
    std::optional<std::uint64_t> anatomy; // checked before the analysis, read after it
    if (!unsignedOption(parser, QStringLiteral("anatomy"), anatomy, 1, kMaxAnatomy))
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

int readAnatomy(const QCommandLineParser &parser, const oe::AnalysisResult &result,
                std::vector<oe::AnatomyReport::Entry> *entries)
{
    std::optional<std::uint64_t> count;
    if (!unsignedOption(parser, QStringLiteral("anatomy"), count, 1, kMaxAnatomy))
        return ExitUsage;
    if (!count)
        return ExitSuccess;
    oe::SourceError error;
    *entries = oe::AnatomyReport::read(result, std::size_t(*count), &error);
    return error.isError() ? fail(exitCodeFor(error), error.toString()) : int(ExitSuccess);
}

int writeAnatomy(const QCommandLineParser &parser, const oe::AnalysisResult &result,
                 const QString &dir, bool quiet)
{
    std::vector<oe::AnatomyReport::Entry> entries;
    if (const int rc = readAnatomy(parser, result, &entries); rc != ExitSuccess)
        return rc;
    if (!parser.isSet(QStringLiteral("anatomy")))
        return ExitSuccess;
    oe::SourceError error;
    oe::StagedOutput output;
    const QString path = QDir(dir).filePath(QStringLiteral("anatomy.csv"));
    QIODevice *file = output.add(path, &error);
    if (!file || !oe::AnatomyReport::csv(entries, file) || !output.commit(nullptr, &error))
        return fail(ExitIo, error.isError() ? error.toString()
                                            : QStringLiteral("%1: could not be written").arg(path));
    if (!quiet && !entries.empty()) {
        const oe::AnatomyReport::Entry &top = entries.front();
        std::printf("anatomy: %zu documents; the largest, %s, has its weight in %s (%s)\n",
                    entries.size(), qPrintable(top.document.id),
                    qPrintable(top.error.isEmpty() ? top.anatomy.heaviestPath : top.error),
                    qPrintable(QString::number(
                                   100.0 * top.anatomy.share(top.anatomy.heaviest.bytes), 'f', 1) +
                               QStringLiteral(" %")));
    }
    return ExitSuccess;
}

} // namespace cli
