#include "WhatIfCommand.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "whatif/WhatIfBenchmark.h"

#include <QDir>

#include <QLocale>

#include <algorithm>
#include <cstdio>

namespace {

void addOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Time an append to a document already holding N elements, unbounded ($push) against "
        "the split layout (the outlier pattern's write path), in a scratch database that is "
        "dropped afterwards, even on Ctrl-C."));
    parser.addHelpOption();
    cli::addConnectionOptions(parser);
    parser.addOptions({
        {QStringLiteral("sizes"),
         QStringLiteral("Elements already in the document, comma-separated (default "
                        "100,1000,5000,10000)."),
         QStringLiteral("N,N,…")},
        {QStringLiteral("element-bytes"), QStringLiteral("BSON bytes per element (default 100)."),
         QStringLiteral("B")},
        {QStringLiteral("ops"), QStringLiteral("Appends timed per size and layout (default 100)."),
         QStringLiteral("N")},
        {QStringLiteral("keep"), QStringLiteral("The split layout's keep (default 50)."),
         QStringLiteral("N")},
        {QStringLiteral("page-size"),
         QStringLiteral("The split layout's page size (default 1000)."), QStringLiteral("P")},
        {QStringLiteral("scratch-db"),
         QStringLiteral("An empty database to use (default: a new oe_whatif_<n>). It is dropped "
                        "at the end; one that holds data is refused."),
         QStringLiteral("NAME")},
        {QStringLiteral("out"), QStringLiteral("Write whatif.csv into this folder."),
         QStringLiteral("DIR")},
    });
}

bool sizesFrom(const QCommandLineParser &parser, QList<int> *sizes)
{
    if (!parser.isSet(QStringLiteral("sizes")))
        return true;
    sizes->clear();
    for (const QString &part : parser.value(QStringLiteral("sizes")).split(QLatin1Char(','))) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 0 || n > 1000000) {
            cli::fail(ExitUsage, QStringLiteral("--sizes expects whole numbers from 0 to "
                                                "1000000, comma-separated; got '%1'")
                                     .arg(part));
            return false;
        }
        *sizes << n;
    }
    return true;
}

bool optionsFrom(const QCommandLineParser &parser, oe::WhatIfOptions *o)
{
    std::optional<std::uint64_t> bytes, ops, keep, pageSize;
    if (!sizesFrom(parser, &o->sizes) ||
        !cli::unsignedOption(parser, QStringLiteral("element-bytes"), bytes, 46, 1 << 20) ||
        !cli::unsignedOption(parser, QStringLiteral("ops"), ops, 1, 100000) ||
        !cli::unsignedOption(parser, QStringLiteral("keep"), keep, 0, 1000000) ||
        !cli::unsignedOption(parser, QStringLiteral("page-size"), pageSize, 1, 1000000))
        return false;
    o->elementBytes = int(bytes.value_or(std::uint64_t(o->elementBytes)));
    o->ops = int(ops.value_or(std::uint64_t(o->ops)));
    o->keep = int(keep.value_or(std::uint64_t(o->keep)));
    o->pageSize = int(pageSize.value_or(std::uint64_t(o->pageSize)));
    o->scratchDatabase = parser.value(QStringLiteral("scratch-db"));
    return o->scratchDatabase.isEmpty() || cli::namespaceNames(o->scratchDatabase, {});
}

void printRow(const oe::WhatIfRow &r)
{
    std::printf("%10s  %10s  %9.3f / %9.3f ms  %9.3f / %9.3f ms  %7.1f×\n",
                qPrintable(QLocale::c().toString(r.elements)),
                qPrintable(QLocale::c().formattedDataSize(qint64(r.documentBytes), 1,
                                                          QLocale::DataSizeIecFormat)),
                r.unboundedMeanMs, r.unboundedMedianMs, r.splitMeanMs, r.splitMedianMs,
                r.speedup());
    std::fflush(stdout);
}

int writeCsv(const QString &dir, const std::vector<oe::WhatIfRow> &rows)
{
    if (dir.isEmpty())
        return ExitSuccess;
    QDir().mkpath(dir); // a failure shows as the file's
    return cli::writeFile(QDir(dir).filePath(QStringLiteral("whatif.csv")),
                          oe::WhatIfBenchmark::csv(rows));
}

} // namespace

namespace WhatIfCommand {

int run(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser);
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    oe::ConnectionSettings settings;
    oe::WhatIfOptions options;
    if (!cli::connectionSettings(parser, &settings) || !optionsFrom(parser, &options))
        return ExitUsage;
    std::printf("%10s  %10s  %26s  %26s  %8s\n", "elements", "document",
                "unbounded $push mean/median", "split append mean/median", "speed-up");
    std::vector<oe::WhatIfRow> rows;
    QString scratch;
    oe::SourceError error;
    const std::atomic<bool> *interrupted = cli::interruptFlag();
    const bool ok =
        oe::WhatIfBenchmark::run(settings, options, &rows, &scratch, &error, interrupted, printRow);
    if (!scratch.isEmpty())
        std::fprintf(stderr, "scratch database %s dropped\n", qPrintable(scratch));
    if (interrupted->load())
        return cli::fail(ExitInterrupted, QStringLiteral("interrupted; the scratch database "
                                                         "was dropped"));
    if (!ok)
        return cli::fail(cli::exitCodeFor(error), error.toString());
    if (std::any_of(rows.begin(), rows.end(),
                    [](const oe::WhatIfRow &r) { return r.legacyWritePath; }))
        std::fprintf(stderr, "warning: the server refused an update pipeline, so the split "
                             "append is the legacy write path (four round trips, not safe "
                             "against concurrent writers on this server)\n");
    return writeCsv(parser.value(QStringLiteral("out")), rows);
}

} // namespace WhatIfCommand
