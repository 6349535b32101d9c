#include "CliSupport.h"

#include "analysis/ThresholdRange.h"
#include "output/StagedOutput.h"

#include <QCoreApplication>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace cli {

namespace {
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free); // safe to store from a signal handler

extern "C" void onInterrupt(int signal)
{
    g_interrupted.store(true);
    std::signal(signal, SIG_DFL); // the next one ends the process
}
} // namespace

const std::atomic<bool> *interruptFlag()
{
    static const bool installed = [] {
        std::signal(SIGINT, onInterrupt);
        std::signal(SIGTERM, onInterrupt);
        std::signal(SIGHUP, onInterrupt); // a closed terminal or ssh session: clean up as well
        return true;
    }();
    (void)installed;
    return &g_interrupted;
}

int fail(int code, const QString &message)
{
    QString line = message;
    line.replace(QLatin1Char('\n'), QLatin1Char(' '));
    std::fprintf(stderr, "outlier-explorer-cli: %s\n", line.toLocal8Bit().constData());
    return code;
}

int writeFile(const QString &path, const QByteArray &bytes)
{
    oe::SourceError error;
    if (!oe::StagedOutput::writeFile(path, bytes, &error))
        return fail(ExitIo, error.toString());
    std::fprintf(stderr, "wrote %s\n", qPrintable(path));
    return ExitSuccess;
}

bool parse(QCommandLineParser &parser, const QStringList &arguments)
{
    if (!parser.parse(arguments)) {
        fail(ExitUsage, parser.errorText());
        return false;
    }
    QStringList seen;
    for (const QString &name : parser.optionNames()) {
        if (!seen.contains(name)) {
            seen << name;
            continue;
        }
        const QStringList values = parser.values(name);
        const QString prefix = name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--");
        fail(ExitUsage, values.isEmpty()
                            ? QStringLiteral("%1%2 is given more than once").arg(prefix, name)
                            : QStringLiteral("%1%2 is given more than once ('%3'): give it once")
                                  .arg(prefix, name, values.join(QStringLiteral("', '"))));
        return false;
    }
    return true;
}

std::optional<int> parseOrHelp(QCommandLineParser &parser, const QStringList &arguments)
{
    if (!parse(parser, arguments))
        return ExitUsage;
    if (parser.isSet(QStringLiteral("help"))) {
        printHelp(parser);
        return ExitSuccess;
    }
    return std::nullopt;
}

void printHelp(const QCommandLineParser &parser)
{
    QString text = parser.helpText();
    const QString program = QCoreApplication::arguments().constFirst();
    const QString qtUsage = QStringLiteral("Usage: ") + program;
    if (text.startsWith(qtUsage))
        text.replace(0, qtUsage.size(),
                     QStringLiteral("usage: outlier-explorer-cli ") +
                         QCoreApplication::arguments().value(1));
    std::fputs(qPrintable(text), stdout);
}

namespace {
QString rangeText(std::uint64_t minimum, std::uint64_t maximum)
{
    if (maximum == std::numeric_limits<std::uint64_t>::max())
        return QStringLiteral(">= %1").arg(minimum);
    return QStringLiteral("from %1 to %2").arg(minimum).arg(maximum);
}
} // namespace

bool unsignedOption(const QCommandLineParser &parser, const QString &name,
                    std::optional<std::uint64_t> &out, std::uint64_t minimum, std::uint64_t maximum)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const QString text = parser.value(name).trimmed();
    const qulonglong v = text.toULongLong(&ok);
    if (!ok || text.startsWith(QLatin1Char('-')) || text.startsWith(QLatin1Char('+')) ||
        v < minimum || v > maximum) {
        fail(ExitUsage, QStringLiteral("--%1 expects a whole number %2, got '%3'")
                            .arg(name, rangeText(minimum, maximum), parser.value(name)));
        return false;
    }
    out = v;
    return true;
}

bool thresholdOption(const QCommandLineParser &parser, const QString &name,
                     std::optional<std::uint64_t> &out, std::uint64_t minimum)
{
    std::optional<std::uint64_t> v;
    if (!unsignedOption(parser, name, v, minimum))
        return false;
    if (v && !oe::ThresholdRange::contains(*v)) {
        fail(ExitUsage, oe::ThresholdRange::aboveMaximum(
                            QStringLiteral("--%1 %2").arg(name, parser.value(name).trimmed())));
        return false;
    }
    out = v;
    return true;
}

bool doubleOption(const QCommandLineParser &parser, const QString &name, double &out,
                  double minimum, double maximum)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const double v = parser.value(name).trimmed().toDouble(&ok);
    // toDouble accepts "nan" and "inf": both would flag all documents or none, silently.
    if (!ok || !std::isfinite(v) || v < minimum || v > maximum) {
        fail(ExitUsage, QStringLiteral("--%1 expects a number from %2 to %3, got '%4'")
                            .arg(name)
                            .arg(minimum)
                            .arg(maximum)
                            .arg(parser.value(name)));
        return false;
    }
    out = v;
    return true;
}

int exitCodeFor(const oe::SourceError &error)
{
    switch (error.kind) {
    case oe::SourceError::Kind::Usage:
        return ExitUsage;
    case oe::SourceError::Kind::InvalidData:
        return ExitInvalidData;
    default:
        return ExitIo;
    }
}

bool stderrIsTerminal()
{
    return ::isatty(2) == 1;
}

} // namespace cli
