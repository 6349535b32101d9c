#include "CliSupport.h"

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

bool unsignedOption(const QCommandLineParser &parser, const QString &name,
                    std::optional<std::uint64_t> &out, std::uint64_t minimum)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const QString text = parser.value(name).trimmed();
    const qulonglong v = text.toULongLong(&ok);
    if (!ok || text.startsWith(QLatin1Char('-')) || v < minimum) {
        fail(ExitUsage, QStringLiteral("--%1 expects a whole number >= %2, got '%3'")
                            .arg(name)
                            .arg(minimum)
                            .arg(parser.value(name)));
        return false;
    }
    out = v;
    return true;
}

bool doubleOption(const QCommandLineParser &parser, const QString &name, double &out)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const double v = parser.value(name).toDouble(&ok);
    if (!ok || v < 0) {
        fail(ExitUsage, QStringLiteral("--%1 expects a non-negative number, got '%2'")
                            .arg(name, parser.value(name)));
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
