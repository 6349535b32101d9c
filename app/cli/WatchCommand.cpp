#include "WatchCommand.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "output/StagedOutput.h"
#include "watch/CollectionWatch.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <thread>

namespace {

// What the Prometheus file reports: the documents seen over, the largest, the events.
class Metrics
{
public:
    Metrics(const oe::WatchOptions &o, QString file) : m_o(o), m_file(std::move(file)) {}

    void add(const oe::WatchEvent &e)
    {
        ++m_events;
        if (e.overSize)
            m_overSize.insert(e.id);
        if (e.overArray)
            m_overArray.insert(e.id);
        m_largest = std::max(m_largest, e.size);
        m_longest = std::max(m_longest, e.length);
    }
    // Rewrites the file whole (beside it, then renamed); false after a one-line error.
    bool write() const
    {
        if (m_file.isEmpty())
            return true;
        const QString labels = QStringLiteral("database=\"%1\",collection=\"%2\"")
                                   .arg(escape(m_o.database), escape(m_o.collection));
        QString text;
        const auto metric = [&](const char *name, const char *type, const char *help,
                                const QString &extra, double value) {
            text += QStringLiteral("# HELP %1 %2\n# TYPE %1 %3\n%1{%4%5} %6\n")
                        .arg(QLatin1String(name), QLatin1String(help), QLatin1String(type), labels,
                             extra, QString::number(value, 'g', 17));
        };
        metric("outlier_explorer_watch_documents_over_size", "gauge",
               "Documents seen over the size threshold since the watch started.",
               QStringLiteral(",threshold_bytes=\"%1\"").arg(m_o.sizeThreshold),
               double(m_overSize.size()));
        metric("outlier_explorer_watch_documents_over_array", "gauge",
               "Documents seen with the watched array over its keep since the watch started.",
               QStringLiteral(",field=\"%1\",keep=\"%2\"").arg(escape(m_o.field)).arg(m_o.keep),
               double(m_overArray.size()));
        metric("outlier_explorer_watch_largest_document_bytes", "gauge",
               "The largest document seen over a threshold, in bytes.", QString(),
               double(m_largest));
        metric("outlier_explorer_watch_longest_array", "gauge",
               "The longest watched array seen over a threshold.",
               QStringLiteral(",field=\"%1\"").arg(escape(m_o.field)),
               double(std::max<std::int64_t>(0, m_longest)));
        metric("outlier_explorer_watch_events_total", "counter",
               "Documents reported over a threshold.", QString(), double(m_events));
        oe::SourceError error;
        if (!oe::StagedOutput::writeFile(m_file, text.toUtf8(), &error)) {
            std::fprintf(stderr, "outlier-explorer-cli: %s\n", qPrintable(error.toString()));
            return false;
        }
        return true;
    }
    bool anyOver() const { return !m_overSize.empty() || !m_overArray.empty(); }

private:
    // Prometheus label values: backslash, double quote and line feed escaped.
    static QString escape(QString v)
    {
        v.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
        v.replace(QLatin1Char('"'), QStringLiteral("\\\""));
        v.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
        return v;
    }

    oe::WatchOptions m_o;
    QString m_file;
    std::set<QString> m_overSize, m_overArray;
    std::uint64_t m_largest = 0;
    std::int64_t m_longest = -1;
    std::uint64_t m_events = 0;
};

void print(const oe::WatchEvent &e, const oe::WatchOptions &o, bool json)
{
    QStringList over;
    if (e.overSize)
        over << QStringLiteral("size");
    if (e.overArray)
        over << QStringLiteral("array");
    if (json) {
        // The _id is libbson's relaxed extended JSON already: embedded as it is.
        const QJsonObject rest{{QStringLiteral("op"), e.operation},
                               {QStringLiteral("size"), qint64(e.size)},
                               {QStringLiteral("length"), qint64(e.length)},
                               {QStringLiteral("over"), QJsonArray::fromStringList(over)},
                               {QStringLiteral("at"), e.at.toString(Qt::ISODate)}};
        QByteArray tail = QJsonDocument(rest).toJson(QJsonDocument::Compact);
        tail.remove(0, 1); // "{"
        std::printf("{\"_id\":%s,%s\n", e.id.toUtf8().constData(), tail.constData());
    } else {
        std::printf(
            "%s %s _id %s: %llu bytes%s (over: %s)\n", qPrintable(e.at.toString(Qt::ISODate)),
            qPrintable(e.operation), qPrintable(e.id), static_cast<unsigned long long>(e.size),
            e.length >= 0 ? qPrintable(QStringLiteral(", %1 %2").arg(o.field).arg(e.length)) : "",
            qPrintable(over.join(QStringLiteral(", "))));
    }
    std::fflush(stdout);
}

bool optionsFrom(const QCommandLineParser &parser, oe::WatchOptions *o)
{
    if (!parser.isSet(QStringLiteral("uri"))) {
        cli::fail(ExitUsage, QStringLiteral("watch needs --uri URI"));
        return false;
    }
    if (!cli::connectionSettings(parser, &o->settings))
        return false;
    o->database = cli::databaseOf(parser, o->settings);
    o->collection = parser.value(QStringLiteral("collection"));
    o->field = parser.value(QStringLiteral("field"));
    std::optional<std::uint64_t> size, keep, interval;
    if (!cli::thresholdOption(parser, QStringLiteral("size-threshold"), size, 1) ||
        !cli::thresholdOption(parser, QStringLiteral("keep"), keep) ||
        !cli::unsignedOption(parser, QStringLiteral("interval-ms"), interval, 100, 86400000))
        return false;
    o->sizeThreshold = size.value_or(0);
    if (!o->field.isEmpty() && !keep) {
        cli::fail(ExitUsage,
                  QStringLiteral("--field needs --keep N (the length it must not pass)"));
        return false;
    }
    o->keep = keep.value_or(0);
    o->intervalMs = int(interval.value_or(60000));
    if (const QStringList problems = o->problems(); !problems.isEmpty()) {
        cli::fail(ExitUsage, problems.first());
        return false;
    }
    return cli::namespaceNames(o->database, o->collection);
}

void addWatchOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Report each document of a collection that crosses the size or array threshold, as it "
        "happens: a change stream on a replica set or sharded cluster (resumed from its token "
        "after a lost connection), elsewhere a check every --interval-ms. Until Ctrl-C, or until "
        "the collection is dropped or renamed (exit 2)."));
    parser.addHelpOption();
    cli::addConnectionOptions(parser);
    cli::addNamespaceOptions(parser);
    parser.addOptions({
        {QStringLiteral("size-threshold"), QStringLiteral("A document over this many bytes."),
         QStringLiteral("BYTES")},
        {QStringLiteral("field"), QStringLiteral("The array to watch (dot notation)."),
         QStringLiteral("F")},
        {QStringLiteral("keep"), QStringLiteral("With --field: an array longer than N."),
         QStringLiteral("N")},
        {QStringLiteral("once"),
         QStringLiteral("Check the collection as it is now and exit: 1 when a document is over a "
                        "threshold, 0 when none is (for cron and monitoring).")},
        {QStringLiteral("json"), QStringLiteral("One JSON object per line.")},
        {QStringLiteral("prometheus"),
         QStringLiteral("Keep FILE in Prometheus text format (node_exporter's textfile "
                        "collector), rewritten after each event."),
         QStringLiteral("FILE")},
        {QStringLiteral("interval-ms"),
         QStringLiteral("Without a change stream: check every MS milliseconds (default 60000)."),
         QStringLiteral("MS")},
        {QStringLiteral("duration"),
         QStringLiteral("Stop after S seconds (default: until Ctrl-C)."), QStringLiteral("S")},
    });
}

// --once: the documents over a threshold now; 1 when there is one.
int checkOnce(const oe::WatchOptions &o, bool json, Metrics &metrics)
{
    oe::SourceError error;
    const std::vector<oe::WatchEvent> over = oe::CollectionWatch::check(o, &error);
    if (error.isError())
        return cli::fail(cli::exitCodeFor(error), error.toString());
    for (const oe::WatchEvent &e : over) {
        print(e, o, json);
        metrics.add(e);
    }
    if (!metrics.write())
        return ExitIo;
    return over.empty() ? ExitSuccess : 1;
}

// The flag that ends the watch: set on Ctrl-C (or SIGTERM), or after `duration` seconds, by a
// thread that lives as long as this.
class StopFlag
{
public:
    explicit StopFlag(std::optional<std::uint64_t> duration)
        : m_thread([this, duration] {
              const std::atomic<bool> *interrupted = cli::interruptFlag();
              QElapsedTimer clock;
              clock.start();
              while (!m_stop.load()) {
                  if (interrupted->load() ||
                      (duration && clock.elapsed() >= qint64(*duration) * 1000))
                      m_stop.store(true);
                  std::this_thread::sleep_for(std::chrono::milliseconds(50));
              }
          })
    {
    }
    ~StopFlag()
    {
        m_stop.store(true);
        m_thread.join();
    }
    const std::atomic<bool> *flag() const { return &m_stop; }

private:
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

void printStatus(const QString &status)
{
    std::fprintf(stderr, "watch: %s\n", qPrintable(status));
    std::fflush(stderr);
}

// How the watch ended, as an exit code: a collection that went away is, as one that was never
// there, a usage error (2), with the line saying what happened.
int exitCodeFor(const oe::WatchEnd &end, bool writeFailed)
{
    if (end.reason == oe::WatchEnd::Reason::Failed)
        return cli::fail(cli::exitCodeFor(end.error), end.error.toString());
    if (end.isGone())
        return cli::fail(ExitUsage, QStringLiteral("watch ended: %1").arg(end.message()));
    return writeFailed ? ExitIo : ExitSuccess;
}

// Until Ctrl-C, --duration, or the collection's end: each event printed and counted.
int watchUntilStopped(const oe::WatchOptions &o, bool json, Metrics &metrics,
                      std::optional<std::uint64_t> duration)
{
    if (!metrics.write())
        return ExitIo;
    const StopFlag stop(duration);
    bool writeFailed = false;
    const oe::WatchEnd end = oe::CollectionWatch::run(
        o, stop.flag(),
        [&](const oe::WatchEvent &e) {
            print(e, o, json);
            metrics.add(e);
            writeFailed = !metrics.write() || writeFailed;
        },
        printStatus);
    return exitCodeFor(end, writeFailed);
}

} // namespace

int WatchCommand::run(const QStringList &arguments)
{
    QCommandLineParser parser;
    addWatchOptions(parser);
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    oe::WatchOptions o;
    std::optional<std::uint64_t> duration;
    if (!optionsFrom(parser, &o) ||
        !cli::unsignedOption(parser, QStringLiteral("duration"), duration, 1))
        return ExitUsage;
    const bool json = parser.isSet(QStringLiteral("json"));
    Metrics metrics(o, parser.value(QStringLiteral("prometheus")));
    return parser.isSet(QStringLiteral("once")) ? checkOnce(o, json, metrics)
                                                : watchUntilStopped(o, json, metrics, duration);
}
