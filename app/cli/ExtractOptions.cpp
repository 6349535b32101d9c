#include "ExtractOptions.h"

#include "CliSupport.h"

#include <limits>
#include <optional>

namespace {

// A whole number of 0 or more from --name, or a one-line usage error.
std::optional<qint64> countOption(const QCommandLineParser &parser, const QString &name)
{
    bool ok = false;
    const qint64 n = parser.value(name).toLongLong(&ok);
    if (!ok || n < 0 || n > std::numeric_limits<int>::max()) {
        cli::fail(ExitUsage,
                  QStringLiteral("--%1: '%2' is not a count").arg(name, parser.value(name)));
        return std::nullopt;
    }
    return n;
}

} // namespace

namespace cli {

void addExtractOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("bucket"), QStringLiteral("--gridfs: the bucket (fs)."),
         QStringLiteral("NAME"), QStringLiteral("fs")},
        {QStringLiteral("strings"), QStringLiteral("--gridfs: strings go too (as UTF-8 files).")},
        {QStringLiteral("side"),
         QStringLiteral("--extract: the side collection (<collection>_<path>_full); it must be "
                        "empty."),
         QStringLiteral("NAME")},
        {QStringLiteral("flag"),
         QStringLiteral("--extract: the top-level flag set true in each document whose value "
                        "moved (has_full_<path>)."),
         QStringLiteral("NAME")},
        {QStringLiteral("min-bytes"),
         QStringLiteral("--extract, --gridfs: move only values of at least N bytes (0: every "
                        "one)."),
         QStringLiteral("N"), QStringLiteral("0")},
        {QStringLiteral("excerpt-chars"),
         QStringLiteral("--extract: a string keeps its first N characters (0)."),
         QStringLiteral("N"), QStringLiteral("0")},
        {QStringLiteral("excerpt-keys"),
         QStringLiteral("--extract: a sub-document keeps these keys (comma-separated)."),
         QStringLiteral("K1,K2")},
    });
}

bool extractFrom(const QCommandLineParser &parser, oe::RewriteConfig *config)
{
    const auto minBytes = countOption(parser, QStringLiteral("min-bytes"));
    const auto chars =
        minBytes ? countOption(parser, QStringLiteral("excerpt-chars")) : std::nullopt;
    if (!chars)
        return false;
    config->sideCollection = parser.value(QStringLiteral("side"));
    config->flagField = parser.value(QStringLiteral("flag"));
    config->minBytes = *minBytes;
    config->excerptChars = int(*chars);
    config->bucket = parser.value(QStringLiteral("bucket"));
    config->gridfsStrings = parser.isSet(QStringLiteral("strings"));
    if (parser.isSet(QStringLiteral("excerpt-keys")))
        config->excerptKeys = parser.value(QStringLiteral("excerpt-keys")).split(QLatin1Char(','));
    return true;
}

} // namespace cli
