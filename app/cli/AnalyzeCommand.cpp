#include "AnalyzeCommand.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "ShapeCliOptions.h"
#include "analysis/SamplePrecision.h"
#include "analysis/SplitRecommendation.h"
#include "analysis/ThresholdRange.h"
#include "explore/AnalysisSession.h"
#include "history/HistoryStore.h"
#include "report/ReportWriter.h"

#include <QCommandLineParser>
#include <QLocale>

#include <algorithm>
#include <cstdio>

namespace {

QString sizeText(std::uint64_t bytes)
{
    return QLocale::c().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeIecFormat);
}

QString count(std::uint64_t n)
{
    return QLocale::c().toString(qulonglong(n));
}

void printProgress(const oe::Analyzer::Progress &p)
{
    QString line =
        QStringLiteral("\r  %1 documents  %2").arg(count(p.documents), sizeText(p.bytes));
    if (p.totalBytes && *p.totalBytes > 0)
        line += QStringLiteral("  %1%").arg(int(100.0 * double(p.bytes) / double(*p.totalBytes)));
    line += QStringLiteral("  %1 s   ").arg(p.seconds, 0, 'f', 1);
    std::fputs(qPrintable(line), stderr);
    std::fflush(stderr);
}

// Ranges of the numeric options: beyond them a value is a typo, not a wish.
constexpr std::uint64_t kMaxSample = 100'000'000; // the sample is held in memory
constexpr std::uint64_t kMaxTop = 100'000;
constexpr std::uint64_t kMaxBsonBytes = 16 * 1024 * 1024;
constexpr std::uint64_t kMaxThreads = 256;
constexpr std::uint64_t kMaxRanges = 64; // cursors at once: beyond, the server is the bound
constexpr double kMaxMultiplier = 100;

// The options one detection method alone reads, and that method.
struct MethodOption
{
    const char *option;
    oe::OutlierMethod method;
};
constexpr MethodOption kMethodOptions[] = {{"preset", oe::OutlierMethod::Absolute},
                                           {"percentile", oe::OutlierMethod::Percentile},
                                           {"mad-z", oe::OutlierMethod::Mad}};

// The method the options choose: --method if given, else the one that --preset, --percentile
// or --mad-z implies (the default if none). An option another method would silently ignore is
// refused instead; empty `problem` when all agree.
oe::OutlierMethod chosenMethod(const QCommandLineParser &parser, oe::OutlierMethod method,
                               QString *problem)
{
    const bool explicitMethod = parser.isSet(QStringLiteral("method"));
    const MethodOption *implied = nullptr;
    for (const MethodOption &m : kMethodOptions) {
        const QString option = QString::fromLatin1(m.option);
        if (!parser.isSet(option))
            continue;
        if (explicitMethod && m.method != method) {
            *problem = QStringLiteral("--%1 goes with --method %2, not --method %3")
                           .arg(option, oe::methodName(m.method), oe::methodName(method));
            return method;
        }
        if (implied && implied->method != m.method) {
            *problem = QStringLiteral("--%1 and --%2 belong to different methods (%3, %4): give "
                                      "one, or --method")
                           .arg(QLatin1String(implied->option), option,
                                oe::methodName(implied->method), oe::methodName(m.method));
            return method;
        }
        implied = &m;
    }
    return explicitMethod || !implied ? method : implied->method;
}

void addSourceOptions(QCommandLineParser &parser);
void addOutOption(QCommandLineParser &parser, bool forReport);
void addSelectionOptions(QCommandLineParser &parser);
void addThresholdOptions(QCommandLineParser &parser);
void addReportOptions(QCommandLineParser &parser);
void addRunOptions(QCommandLineParser &parser);

// The options `analyze` and `report` share, in the order --help lists them.
void addAnalyzeOptions(QCommandLineParser &parser, bool forReport)
{
    parser.setApplicationDescription(
        forReport ? QStringLiteral("Analyse a collection or dump and write one shareable report "
                                   "(HTML or PDF): figures, charts, outliers, thresholds.")
                  : QStringLiteral("Analyse document sizes and array lengths, detect outliers and "
                                   "write CSV reports."));
    parser.addHelpOption();
    cli::addConnectionOptions(parser);
    cli::addNamespaceOptions(parser);
    addSourceOptions(parser);
    addOutOption(parser, forReport);
    addSelectionOptions(parser);
    addThresholdOptions(parser);
    addReportOptions(parser);
    cli::addShapeOptions(parser);
    addRunOptions(parser);
}

// Where the documents come from and how a live source is read.
void addSourceOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("filter"),
         QStringLiteral("Only documents matching this query (extended JSON, with --uri)."),
         QStringLiteral("JSON")},
        {QStringLiteral("max-time-ms"),
         QStringLiteral("Server-side time limit per operation (with --uri)."),
         QStringLiteral("MS")},
        {QStringLiteral("batch-size"), QStringLiteral("Cursor batch size (with --uri)."),
         QStringLiteral("N")},
        {QStringLiteral("max-docs-per-sec"),
         QStringLiteral("Read at most R documents per second, to spare a busy server (with "
                        "--uri)."),
         QStringLiteral("R")},
        {QStringLiteral("measure"),
         QStringLiteral(
             "Where sizes and array lengths are measured (with --uri): server "
             "($bsonSize, MongoDB 4.4+: the scan moves numbers, not documents; a "
             "partial analysis, no shape), cluster (counted on the server: only "
             "tallies and outliers move, whatever the collection's size; more passes "
             "there; the shape too where the tallies can plan it: then the whole "
             "analysis, else the server's figures), client (every document is read here), or "
             "auto (default: the whole analysis; on this machine read here, across a "
             "network counted in the cluster where the server can count all of it, else "
             "read here with wire compression)."),
         QStringLiteral("WHERE")},
        {QStringLiteral("dump"), QStringLiteral("A mongodump .bson (or .bson.gz) file."),
         QStringLiteral("FILE")},
    });
}

void addOutOption(QCommandLineParser &parser, bool forReport)
{
    parser.addOptions({
        {QStringLiteral("out"),
         forReport ? QStringLiteral("The report file: .html or .pdf.")
                   : QStringLiteral("Directory for the CSV reports."),
         forReport ? QStringLiteral("FILE") : QStringLiteral("DIR")},
    });
}

// Which documents are analysed: all, a sample or the first N.
void addSelectionOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("full"), QStringLiteral("Analyse every document (the default for dumps).")},
        {QStringLiteral("sample"),
         QStringLiteral("Analyse a uniform random sample of N documents."), QStringLiteral("N")},
        {QStringLiteral("limit"), QStringLiteral("Analyse the first N documents."),
         QStringLiteral("N")},
        {QStringLiteral("seed"), QStringLiteral("Seed for --sample (default 42)."),
         QStringLiteral("S")},
        {QStringLiteral("precision"),
         QStringLiteral("With --sample: the sample size that pins p99 to within +/-PTS "
                        "percentile points goes into summary.csv (0.0001 to 0.99, default 0.1)."),
         QStringLiteral("PTS")},
    });
}

// The thresholds, given or found by a detection method.
void addThresholdOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("size-threshold"),
         QStringLiteral("Documents larger than BYTES are outliers (at most %1).")
             .arg(oe::ThresholdRange::maximumText()),
         QStringLiteral("BYTES")},
        {QStringLiteral("array-threshold"),
         QStringLiteral("Documents with an array longer than N are outliers (at most %1).")
             .arg(oe::ThresholdRange::maximumText()),
         QStringLiteral("N")},
        {QStringLiteral("method"),
         QStringLiteral("absolute|percentile|iqr|mad for thresholds not given (default iqr)."),
         QStringLiteral("METHOD")},
        {QStringLiteral("preset"),
         QStringLiteral("Numbers for --method absolute: %1 (default compass).")
             .arg(oe::ThresholdPreset::names().join(QLatin1Char('|'))),
         QStringLiteral("NAME")},
        {QStringLiteral("percentile"),
         QStringLiteral("Percentile for --method percentile (default 99)."), QStringLiteral("P")},
        {QStringLiteral("fence-k"),
         QStringLiteral("Tukey fence multiplier for --method iqr (default 1.5)."),
         QStringLiteral("K")},
        {QStringLiteral("mad-z"),
         QStringLiteral("Robust z-score cut-off for --method mad (default 3.5)."),
         QStringLiteral("Z")},
    });
}

// What the reports hold beyond the figures.
void addReportOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("top"),
         QStringLiteral("Rows in the top documents/arrays reports (default 20)."),
         QStringLiteral("K")},
        {QStringLiteral("target-primary-bytes"),
         QStringLiteral("Target primary document size for split recommendations (default 204800)."),
         QStringLiteral("BYTES")},
    });
}

// How the analysis runs: threads, a resumable parallel scan, output and history.
void addRunOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("threads"), QStringLiteral("Analysis threads (default: one per core)."),
         QStringLiteral("N")},
        {QStringLiteral("parallel"),
         QStringLiteral("Full scan (with --uri) by N _id ranges read at once, in _id order; "
                        "resumable. Any N gives the same reports. Counted in the cluster "
                        "(--measure cluster): its passes cut in N ranges counted at once "
                        "(default 2; 1: one pass)."),
         QStringLiteral("N")},
        {QStringLiteral("checkpoint-ms"),
         QStringLiteral("How often a --parallel scan saves its state (default 3000; 0: after "
                        "every batch)."),
         QStringLiteral("MS")},
        {QStringLiteral("resume"),
         QStringLiteral("Continue the interrupted --parallel scan of the same collection, filter "
                        "and options (Ctrl-C, a crash or a lost network saved its state).")},
        {QStringLiteral("quiet"), QStringLiteral("No progress or summary output.")},
        {QStringLiteral("no-history"),
         QStringLiteral("Do not keep this analysis in the analysis history (`history` lists "
                        "it; $OE_HISTORY_DB names its file).")},
    });
}

// The source part of the request: a dump, or a collection (checked names, validated filter).
bool sourceFrom(const QCommandLineParser &parser, oe::AnalysisRequest *request)
{
    if (!parser.isSet(QStringLiteral("uri"))) {
        request->source.kind = oe::SourceRef::Kind::Dump;
        request->source.dumpPath = parser.value(QStringLiteral("dump"));
        return true;
    }
    oe::SourceRef &source = request->source;
    source.kind = oe::SourceRef::Kind::Collection;
    if (!cli::connectionSettings(parser, &source.settings))
        return false;
    source.database = cli::databaseOf(parser, source.settings);
    source.collection = parser.value(QStringLiteral("collection"));
    if (source.database.isEmpty() || source.collection.isEmpty()) {
        cli::fail(ExitUsage, QStringLiteral("analyze --uri needs --db DB (or a database in the "
                                            "URI) and --collection NAME"));
        return false;
    }
    if (!cli::namespaceNames(source.database, source.collection))
        return false;
    request->filter = parser.value(QStringLiteral("filter"));
    if (const QString problem = oe::LiveQuery::validateFilter(request->filter);
        !problem.isEmpty()) {
        cli::fail(ExitUsage, QStringLiteral("--filter: %1").arg(problem));
        return false;
    }
    return true;
}

// Which source, and which options only make sense together.
bool checkCombinations(const QCommandLineParser &parser)
{
    if (!parser.positionalArguments().isEmpty()) {
        cli::fail(
            ExitUsage,
            QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
        return false;
    }
    const bool live = parser.isSet(QStringLiteral("uri"));
    if (live == parser.isSet(QStringLiteral("dump"))) {
        cli::fail(ExitUsage, QStringLiteral("analyze needs one source: --dump FILE.bson, or --uri "
                                            "URI --db DB --collection NAME"));
        return false;
    }
    if (!live) {
        for (const char *liveOnly : {"db", "collection", "filter", "max-time-ms", "batch-size",
                                     "max-docs-per-sec", "parallel", "measure"})
            if (parser.isSet(QString::fromLatin1(liveOnly))) {
                cli::fail(ExitUsage,
                          QStringLiteral("--%1 goes with --uri").arg(QLatin1String(liveOnly)));
                return false;
            }
    }
    if (!parser.isSet(QStringLiteral("out"))) {
        cli::fail(ExitUsage, QStringLiteral("--out is required (analyze: a folder for the CSV "
                                            "reports; report: an .html or .pdf file)"));
        return false;
    }
    if (int(parser.isSet(QStringLiteral("full"))) + int(parser.isSet(QStringLiteral("sample"))) +
            int(parser.isSet(QStringLiteral("limit"))) >
        1) {
        cli::fail(ExitUsage, QStringLiteral("choose one of --full, --sample N, --limit N"));
        return false;
    }
    return true;
}

// --method, --preset and the methods' parameters.
bool detectionFrom(const QCommandLineParser &parser, oe::DetectionOptions *detection)
{
    if (!cli::doubleOption(parser, QStringLiteral("percentile"), detection->parameters.percentile,
                           0, 100) ||
        !cli::doubleOption(parser, QStringLiteral("fence-k"), detection->parameters.fenceK, 0,
                           kMaxMultiplier) ||
        !cli::doubleOption(parser, QStringLiteral("mad-z"), detection->parameters.madZ, 0,
                           kMaxMultiplier))
        return false;
    if (parser.isSet(QStringLiteral("method"))) {
        const auto m = oe::methodFromName(parser.value(QStringLiteral("method")));
        if (!m) {
            cli::fail(ExitUsage,
                      QStringLiteral("--method must be absolute, percentile, iqr or mad, got '%1'")
                          .arg(parser.value(QStringLiteral("method"))));
            return false;
        }
        detection->method = *m;
    }
    if (parser.isSet(QStringLiteral("preset"))) {
        const auto p = oe::ThresholdPreset::byName(parser.value(QStringLiteral("preset")));
        if (!p) {
            cli::fail(ExitUsage, QStringLiteral("--preset must be one of %1, got '%2'")
                                     .arg(oe::ThresholdPreset::names().join(QStringLiteral(", ")),
                                          parser.value(QStringLiteral("preset"))));
            return false;
        }
        detection->preset = *p;
    }
    QString conflict;
    detection->method = chosenMethod(parser, detection->method, &conflict);
    if (!conflict.isEmpty())
        cli::fail(ExitUsage, conflict);
    return conflict.isEmpty();
}

// The numbers of the request: how much to read, thresholds, target, threads, live limits.
bool numbersFrom(const QCommandLineParser &parser, oe::AnalysisRequest *request, std::uint64_t *top)
{
    constexpr std::uint64_t kInt32Max = 2147483647;
    std::optional<std::uint64_t> sample, limit, seed, sizeThreshold, arrayThreshold, topRows,
        target, threads, maxTime, batchSize, parallel, checkpointMs;
    if (!cli::unsignedOption(parser, QStringLiteral("sample"), sample, 1, kMaxSample) ||
        !cli::unsignedOption(parser, QStringLiteral("limit"), limit, 1) ||
        !cli::unsignedOption(parser, QStringLiteral("seed"), seed) ||
        !cli::thresholdOption(parser, QStringLiteral("size-threshold"), sizeThreshold) ||
        !cli::thresholdOption(parser, QStringLiteral("array-threshold"), arrayThreshold) ||
        !cli::unsignedOption(parser, QStringLiteral("top"), topRows, 0, kMaxTop) ||
        !cli::unsignedOption(parser, QStringLiteral("target-primary-bytes"), target, 1,
                             kMaxBsonBytes) ||
        !cli::unsignedOption(parser, QStringLiteral("threads"), threads, 1, kMaxThreads) ||
        !cli::unsignedOption(parser, QStringLiteral("max-time-ms"), maxTime, 1, kInt32Max) ||
        !cli::unsignedOption(parser, QStringLiteral("batch-size"), batchSize, 1, kInt32Max) ||
        !cli::unsignedOption(parser, QStringLiteral("parallel"), parallel, 1, kMaxRanges) ||
        !cli::unsignedOption(parser, QStringLiteral("checkpoint-ms"), checkpointMs, 0, 3600000))
        return false;
    if (!cli::doubleOption(parser, QStringLiteral("precision"), request->p99PrecisionPoints, 0.0001,
                           0.99) ||
        !cli::doubleOption(parser, QStringLiteral("max-docs-per-sec"), request->maxDocsPerSecond, 0,
                           1e9))
        return false;
    request->checkpointMs = qint64(checkpointMs.value_or(3000));
    request->parallelRanges = int(parallel.value_or(0));
    request->resume = parser.isSet(QStringLiteral("resume"));
    if (parser.isSet(QStringLiteral("measure"))) {
        const auto mode = oe::measureModeFrom(parser.value(QStringLiteral("measure")));
        if (!mode) {
            cli::fail(ExitUsage,
                      QStringLiteral("--measure: '%1' is not one of server, cluster, client, auto")
                          .arg(parser.value(QStringLiteral("measure"))));
            return false;
        }
        request->measure = *mode;
    }
    request->selection.mode = sample  ? oe::AnalysisOptions::Mode::Sample
                              : limit ? oe::AnalysisOptions::Mode::Limit
                                      : oe::AnalysisOptions::Mode::Full;
    request->selection.count = sample ? *sample : limit.value_or(0);
    request->selection.seed = seed.value_or(42);
    request->threads = int(threads.value_or(0));
    request->maxTimeMs = qint64(maxTime.value_or(0));
    request->batchSize = int(batchSize.value_or(0));
    request->targetPrimaryBytes = target.value_or(oe::SplitRecommendation::kDefaultTargetBytes);
    request->detection.sizeThreshold = sizeThreshold;
    request->detection.arrayThreshold = arrayThreshold;
    *top = topRows.value_or(20);
    return true;
}

void printSummary(const oe::AnalysisResult &result, const QString &out)
{
    const oe::CollectionProfile &profile = result.profile;
    const oe::OutlierReport &outliers = result.outliers;
    const oe::Distribution &s = profile.sizes;
    // A server-side measurement is named partial in the first line.
    std::printf("%s: %s documents, %s (%s%s, %.2f s)\n", qPrintable(profile.source),
                qPrintable(count(profile.documents)), qPrintable(sizeText(s.sum())),
                qPrintable(profile.mode),
                profile.measuredOnServer ? ", partial analysis: measured on the server" : "",
                profile.seconds);
    const oe::SamplePrecision precision =
        oe::SamplePrecision::of(profile, result.request.p99PrecisionPoints);
    if (!precision.applies) {
        std::printf("sizes: p50 %s, p99 %s, max %s\n", qPrintable(sizeText(s.quantile(0.5))),
                    qPrintable(sizeText(s.quantile(0.99))), qPrintable(sizeText(s.max())));
    } else {
        auto ci = [](const oe::SamplePrecision::Interval &i) {
            return QStringLiteral("%1-%2").arg(i.low ? sizeText(*i.low) : QStringLiteral("?"),
                                               i.high ? sizeText(*i.high) : QStringLiteral("?"));
        };
        std::printf("sizes: p50 %s (%.0f%% CI %s), p99 %s (CI %s), max %s (at most %s of the "
                    "collection larger)\n",
                    qPrintable(sizeText(s.quantile(0.5))), precision.confidence * 100,
                    qPrintable(ci(precision.p50)), qPrintable(sizeText(s.quantile(0.99))),
                    qPrintable(ci(precision.p99)), qPrintable(sizeText(s.max())),
                    precision.documentsAboveMax ? qPrintable(count(*precision.documentsAboveMax))
                                                : qPrintable(QStringLiteral("%1%").arg(
                                                      precision.shareAboveMax * 100, 0, 'g', 3)));
        std::printf("precision: a sample of %s pins p99 to +/-%s percentile points\n",
                    qPrintable(count(precision.sampleForTarget)),
                    qPrintable(QString::number(precision.targetPoints, 'g', 6)));
    }
    std::printf("outliers: %s documents (%s by size: %s; %s by arrays)\n",
                qPrintable(count(outliers.outlierDocuments)),
                qPrintable(count(outliers.sizeOutliers)), qPrintable(outliers.size.rule),
                qPrintable(count(outliers.arrayOutliers)));
    for (const auto &r : result.recommendations) {
        if (r.splittable && r.documentsOver > 0)
            std::printf("split %s: keep %s (%s documents over)\n", r.path.c_str(),
                        qPrintable(count(r.keep)), qPrintable(count(r.documentsOver)));
    }
    if (result.sharding)
        for (const auto &row : result.sharding->rows(outliers))
            std::printf("shard %s: %s outlier documents, %s over the size threshold; %d "
                        "chunk(s), %d jumbo\n",
                        qPrintable(row.shard), qPrintable(count(row.outlierDocuments)),
                        qPrintable(sizeText(row.bytesOverThreshold)), row.chunks, row.jumboChunks);
    cli::printShape(result.shape);
    for (const QString &w : outliers.warnings)
        std::printf("warning: %s\n", qPrintable(w));
    std::printf("reports: %s\n", qPrintable(out));
}

} // namespace

namespace {

// Parses, analyses and hands the result to `output`; the exit code.
int analyse(QCommandLineParser &parser, const QStringList &arguments,
            const AnalyzeCommand::Writer &output)
{
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    oe::AnalysisRequest request;
    std::uint64_t top = 20;
    if (!checkCombinations(parser) || !numbersFrom(parser, &request, &top) ||
        !detectionFrom(parser, &request.detection) || !cli::shapeFrom(parser, &request.shape) ||
        !sourceFrom(parser, &request))
        return ExitUsage;
    if (const QStringList problems = request.problems(); !problems.isEmpty()) {
        cli::fail(ExitUsage, problems.first());
        return ExitUsage;
    }
    if (!parser.isSet(QStringLiteral("no-history")))
        request.historyPath = oe::HistoryStore::defaultPath();
    request.origin = QStringLiteral("cli");

    const bool quiet = parser.isSet(QStringLiteral("quiet"));
    const bool showProgress = !quiet && cli::stderrIsTerminal();
    // A range scan stops cleanly on Ctrl-C and saves its state; a plain one just ends.
    const std::atomic<bool> *interrupted = request.usesRanges() ? cli::interruptFlag() : nullptr;
    const oe::AnalysisResult result =
        oe::AnalysisSession::run(request, interrupted,
                                 showProgress ? oe::AnalysisSession::ProgressCallback(printProgress)
                                              : oe::AnalysisSession::ProgressCallback());
    if (showProgress)
        std::fputs("\n", stderr);
    if (!quiet)
        for (const QString &note : result.profile.notes)
            std::fprintf(stderr, "%s\n", qPrintable(note));
    if (result.sourceUnreadable())
        return cli::fail(cli::exitCodeFor(result.profile.error), result.profile.error.toString());
    if (const int rc = output(parser, result); rc != ExitSuccess) {
        if (!result.profile.keptState.isEmpty() && !result.profile.isPartial())
            std::fprintf(stderr, "the scan state is kept: the same command with --resume writes "
                                 "the reports without reading the collection again\n");
        return rc;
    }
    oe::AnalysisSession::release(result);
    if (result.profile.status == oe::CollectionProfile::Status::Cancelled)
        return cli::fail(ExitInterrupted,
                         QStringLiteral("interrupted: reports cover the %1 documents read; the "
                                        "scan state was saved (--resume continues it)")
                             .arg(result.profile.documents));
    if (result.profile.status == oe::CollectionProfile::Status::Failed)
        return cli::fail(cli::exitCodeFor(result.profile.error),
                         result.profile.error.toString() +
                             QStringLiteral(" (reports cover the %1 documents before it)")
                                 .arg(result.profile.documents));
    return ExitSuccess;
}

} // namespace

int AnalyzeCommand::run(const QStringList &arguments)
{
    QCommandLineParser parser;
    addAnalyzeOptions(parser, false);
    return analyse(
        parser, arguments, [](const QCommandLineParser &parser, const oe::AnalysisResult &result) {
            const QString out = parser.value(QStringLiteral("out"));
            std::optional<std::uint64_t> top;
            cli::unsignedOption(parser, QStringLiteral("top"), top, 0, kMaxTop);
            QString writeError;
            if (!oe::ReportWriter::write(
                    out, oe::ReportWriter::Report::of(result, int(top.value_or(20))), &writeError))
                return cli::fail(ExitIo, writeError);
            const bool quiet = parser.isSet(QStringLiteral("quiet"));
            if (!quiet)
                printSummary(result, out);
            return cli::writeAnatomy(parser, result, out, quiet);
        });
}

int AnalyzeCommand::runForReport(const QStringList &arguments,
                                 const std::function<void(QCommandLineParser &)> &addOptions,
                                 const Writer &write)
{
    QCommandLineParser parser;
    addAnalyzeOptions(parser, true);
    addOptions(parser);
    return analyse(parser, arguments, write);
}
