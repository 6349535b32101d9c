#include "HistoryCommand.h"

#include "CliSupport.h"
#include "history/HistoryStore.h"
#include "history/SourceForecast.h"
#include "output/CsvWriter.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>

namespace {

QString n(std::uint64_t v)
{
    return QString::number(v);
}

// The source key the options name (empty: every source); false after a usage error.
bool selection(const QCommandLineParser &parser, QString *key)
{
    const bool byKey = parser.isSet(QStringLiteral("source"));
    const bool byUri = parser.isSet(QStringLiteral("uri"));
    const bool byDump = parser.isSet(QStringLiteral("dump"));
    if (int(byKey) + int(byUri) + int(byDump) > 1) {
        cli::fail(ExitUsage, QStringLiteral("history: --source, --uri and --dump exclude each "
                                            "other"));
        return false;
    }
    oe::SourceRef source;
    if (byKey) {
        *key = parser.value(QStringLiteral("source"));
    } else if (byDump) {
        source.kind = oe::SourceRef::Kind::Dump;
        source.dumpPath = parser.value(QStringLiteral("dump"));
        *key = oe::HistoryStore::sourceKeyOf(source);
    } else if (byUri) {
        source.kind = oe::SourceRef::Kind::Collection;
        source.settings.uri = parser.value(QStringLiteral("uri"));
        source.database = parser.value(QStringLiteral("db"));
        source.collection = parser.value(QStringLiteral("collection"));
        if (source.database.isEmpty() || source.collection.isEmpty()) {
            cli::fail(ExitUsage, QStringLiteral("history: --uri needs --db and --collection"));
            return false;
        }
        *key = oe::HistoryStore::sourceKeyOf(source);
    }
    return true;
}

QByteArray runsCsv(const std::vector<oe::HistoryRun> &runs)
{
    oe::CsvWriter csv({QStringLiteral("run_id"), QStringLiteral("at"), QStringLiteral("origin"),
                       QStringLiteral("source"), QStringLiteral("mode"),
                       QStringLiteral("documents"), QStringLiteral("size_p50"),
                       QStringLiteral("size_p99"), QStringLiteral("size_max"),
                       QStringLiteral("size_mean"), QStringLiteral("outlier_documents"),
                       QStringLiteral("size_threshold"), QStringLiteral("longest_path"),
                       QStringLiteral("longest_array"), QStringLiteral("shape_flags")});
    for (const oe::HistoryRun &r : runs) // shape_flags empty: the run did not measure the shape
        csv.addRow({QString::number(r.id), r.at.toString(Qt::ISODateWithMs), r.origin, r.sourceKey,
                    r.mode, n(r.documents), n(r.sizeP50), n(r.sizeP99), n(r.sizeMax),
                    QString::number(r.sizeMean, 'f', 1), n(r.outlierDocuments), n(r.sizeThreshold),
                    r.longestPath, n(r.longestArray), r.shapeFlags ? n(*r.shapeFlags) : QString()});
    return csv.bytes();
}

int exportAll(const oe::HistoryStore &store, const std::vector<oe::HistoryRun> &runs,
              const QString &dir)
{
    if (!QDir().mkpath(dir))
        return cli::fail(ExitIo, QStringLiteral("%1: cannot create the folder").arg(dir));
    oe::CsvWriter paths({QStringLiteral("run_id"), QStringLiteral("path"), QStringLiteral("arrays"),
                         QStringLiteral("length_p50"), QStringLiteral("length_p99"),
                         QStringLiteral("length_max"), QStringLiteral("elements")});
    oe::CsvWriter outliers({QStringLiteral("run_id"), QStringLiteral("kind"),
                            QStringLiteral("rank"), QStringLiteral("_id"), QStringLiteral("bytes"),
                            QStringLiteral("path"), QStringLiteral("length")});
    oe::CsvWriter shape({QStringLiteral("run_id"), QStringLiteral("kind"), QStringLiteral("path"),
                         QStringLiteral("type"), QStringLiteral("count"), QStringLiteral("total")});
    for (const oe::HistoryRun &r : runs) {
        for (const oe::HistoryShapeFlag &f : store.shapeFlags(r.id))
            shape.addRow({QString::number(r.id), f.kind, f.path, f.type, n(f.count), n(f.total)});
        for (const oe::HistoryPath &p : store.paths(r.id))
            paths.addRow({QString::number(r.id), p.path, n(p.arrays), n(p.lengthP50),
                          n(p.lengthP99), n(p.lengthMax), n(p.elements)});
        for (const oe::HistoryOutlier &o : store.outliers(r.id))
            outliers.addRow({QString::number(r.id), o.kind, QString::number(o.rank), o.id,
                             n(o.bytes), o.path, n(o.length)});
    }
    const QDir out(dir);
    for (const auto &[name, bytes] : {std::pair{QStringLiteral("runs.csv"), runsCsv(runs)},
                                      std::pair{QStringLiteral("paths.csv"), paths.bytes()},
                                      std::pair{QStringLiteral("outliers.csv"), outliers.bytes()},
                                      std::pair{QStringLiteral("shape_flags.csv"), shape.bytes()}})
        if (const int rc = cli::writeFile(out.filePath(name), bytes); rc != ExitSuccess)
            return rc;
    return ExitSuccess;
}

// Per source: its largest document's growth, then its largest documents'.
void printForecasts(const oe::HistoryStore &store, const std::vector<oe::HistoryRun> &runs,
                    double threshold)
{
    std::map<QString, std::vector<oe::HistoryRun>> bySource;
    for (const oe::HistoryRun &r : runs)
        bySource[r.sourceKey].push_back(r);
    for (const auto &[source, list] : bySource) {
        const QStringList lines = oe::SourceForecast::of(store, list, threshold).lines(list.size());
        std::printf("%s: %s\n", qPrintable(source), qPrintable(lines.value(0)));
        for (const QString &line : lines.mid(1))
            std::printf("  %s\n", qPrintable(line));
    }
}

} // namespace

int HistoryCommand::run(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The analysis history that analyze and the window keep (an SQLite file: "
        "$OE_HISTORY_DB, else the XDG data folder's outlier-explorer/history.sqlite): the runs "
        "as CSV on standard output."));
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("source"), QStringLiteral("Only this source key (as the runs list it)."),
         QStringLiteral("KEY")},
        {QStringLiteral("uri"),
         QStringLiteral("Only this cluster's collection (with --db and --collection; no "
                        "connection is made)."),
         QStringLiteral("URI")},
        {QStringLiteral("db"), QStringLiteral("Database, with --uri."), QStringLiteral("DB")},
        {QStringLiteral("collection"), QStringLiteral("Collection, with --uri."),
         QStringLiteral("NAME")},
        {QStringLiteral("dump"), QStringLiteral("Only this dump file."), QStringLiteral("FILE")},
        {QStringLiteral("out"),
         QStringLiteral("Export the runs, their array paths and their top outliers into DIR "
                        "(runs.csv, paths.csv, outliers.csv, shape_flags.csv)."),
         QStringLiteral("DIR")},
        {QStringLiteral("forecast"),
         QStringLiteral("Growth per day of each source's largest document and of its largest "
                        "documents, and when they cross --threshold and 16 MiB.")},
        {QStringLiteral("threshold"),
         QStringLiteral("The size the forecast looks for, in bytes (default 8388608: half the "
                        "16 MiB limit)."),
         QStringLiteral("BYTES")},
    });
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    QString key;
    if (!selection(parser, &key))
        return ExitUsage;
    std::optional<std::uint64_t> threshold = 8u * 1024u * 1024u;
    if (!cli::unsignedOption(parser, QStringLiteral("threshold"), threshold, 1))
        return ExitUsage;
    const oe::HistoryStore store;
    if (!store.isOpen())
        return cli::fail(ExitIo, store.error());
    const std::vector<oe::HistoryRun> runs = store.runs(key);
    if (parser.isSet(QStringLiteral("out")))
        return exportAll(store, runs, parser.value(QStringLiteral("out")));
    if (parser.isSet(QStringLiteral("forecast"))) {
        printForecasts(store, runs, double(*threshold));
        return ExitSuccess;
    }
    const QByteArray csv = runsCsv(runs);
    std::fwrite(csv.constData(), 1, std::size_t(csv.size()), stdout);
    return ExitSuccess;
}
