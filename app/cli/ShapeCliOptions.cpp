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
        {QStringLiteral("sparse-share"),
         QStringLiteral("A sparse field family's members are each in under PCT % of the "
                        "documents (default 10)."),
         QStringLiteral("PCT")},
        {QStringLiteral("sparse-min-fields"),
         QStringLiteral("A sparse field family has at least N members (default 20)."),
         QStringLiteral("N")},
        {QStringLiteral("big-scalar-bytes"),
         QStringLiteral("Strings and binaries larger than BYTES are big scalars (default 262144)."),
         QStringLiteral("BYTES")},
        {QStringLiteral("version-field"),
         QStringLiteral("The top-level field holding each document's schema version: rare fields "
                        "and mixed types are judged within each version (default: found among "
                        "schema_version, schemaVersion, _v and version; 'none': the whole "
                        "collection only)."),
         QStringLiteral("NAME")},
        {QStringLiteral("anatomy"),
         QStringLiteral("Also write anatomy.csv: why the N largest outlier documents are big "
                        "(bytes by top-level field, where the weight sits). They are read again: "
                        "a dump once, a collection by their _ids."),
         QStringLiteral("N")},
    });
}

namespace {

// --version-field: a top-level name (what a filter can name: no dot, no leading '$'), or none.
bool versionFrom(const QCommandLineParser &parser, oe::ShapeOptions *options)
{
    const QString name = parser.value(QStringLiteral("version-field"));
    if (!parser.isSet(QStringLiteral("version-field")))
        return true;
    if (name == QLatin1String("none")) {
        options->versions = oe::ShapeOptions::Versions::Off;
        return true;
    }
    if (name.isEmpty() || name.contains(QLatin1Char('.')) || name.startsWith(QLatin1Char('$')) ||
        name.contains(QChar(0))) {
        fail(ExitUsage, QStringLiteral("--version-field: a top-level field name, without a dot or "
                                       "a leading $ (got \"%1\")")
                            .arg(name));
        return false;
    }
    options->versions = oe::ShapeOptions::Versions::Named;
    options->versionField = name.toStdString();
    return true;
}

QString percentText(double share)
{
    return QString::number(100.0 * share, 'f', share < 0.001 ? 2 : 1) + QStringLiteral(" %");
}

void printVersions(const oe::ShapeReport &report)
{
    const oe::SchemaVersions &v = report.versions;
    if (!v.inEffect()) {
        if (report.options.versions == oe::ShapeOptions::Versions::Named)
            std::printf("versions: %s\n", qPrintable(v.note));
        return;
    }
    QStringList shares;
    for (const oe::SchemaVersions::Share &s : v.shares)
        shares
            << QStringLiteral("%1 %2 (%3)").arg(s.value, percentText(v.share(s))).arg(s.documents);
    std::printf("versions by %s (%s): %s; %zu flags of the whole collection explained by them\n",
                v.field.c_str(), v.source == oe::SchemaVersions::Source::Named ? "named" : "found",
                qPrintable(shares.join(QStringLiteral(", "))), report.explained());
    if (v.history.size() < 2)
        return;
    QStringList moves;
    for (const oe::SchemaVersions::Share &s : v.shares) {
        QStringList steps;
        for (const oe::SchemaVersions::Point &p : v.history) {
            std::uint64_t n = 0;
            for (const oe::SchemaVersions::Share &ps : p.shares)
                n = ps.value == s.value ? ps.documents : n;
            steps << percentText(p.documents ? double(n) / double(p.documents) : 0.0);
        }
        moves << QStringLiteral("%1 %2").arg(s.value, steps.join(QStringLiteral(" -> ")));
    }
    std::printf("versions over %zu analyses since %s: %s\n", v.history.size(),
                qPrintable(v.history.front().at.toUTC().toString(Qt::ISODate)),
                qPrintable(moves.join(QStringLiteral("; "))));
}
} // namespace

bool shapeFrom(const QCommandLineParser &parser, oe::ShapeOptions *options)
{
    double rare = options->rareShare * 100, mixed = options->mixedShare * 100,
           sparse = options->sparseShare * 100;
    std::optional<std::uint64_t> big, sparseFields;
    if (!doubleOption(parser, QStringLiteral("rare-share"), rare, 0, 100) ||
        !doubleOption(parser, QStringLiteral("mixed-share"), mixed, 0, 100) ||
        !doubleOption(parser, QStringLiteral("sparse-share"), sparse, 0, 100) ||
        !unsignedOption(parser, QStringLiteral("sparse-min-fields"), sparseFields, 2, 100000) ||
        !unsignedOption(parser, QStringLiteral("big-scalar-bytes"), big, 1, 16 * 1024 * 1024))
        return false;
    options->sparseShare = sparse / 100;
    if (sparseFields)
        options->sparseMinFields = std::size_t(*sparseFields);
    std::optional<std::uint64_t> anatomy; // checked before the analysis, read after it
    if (!unsignedOption(parser, QStringLiteral("anatomy"), anatomy, 1, kMaxAnatomy))
        return false;
    if (!versionFrom(parser, options))
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
        {Kind::SparseFields, "sparse field families"},
    };
    QStringList parts;
    for (const auto &[kind, name] : kinds)
        if (const std::size_t n = report.count(kind))
            parts << QStringLiteral("%1 %2").arg(n).arg(QLatin1String(name));
    std::printf("shape: %s\n",
                parts.isEmpty() ? "no outliers" : qPrintable(parts.join(QStringLiteral(", "))));
    printVersions(report);
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
