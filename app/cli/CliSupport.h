#pragma once

#include "ExitCode.h"

#include "source/SourceError.h"

#include <QCommandLineParser>
#include <QString>

#include <atomic>
#include <cstdint>
#include <limits>
#include <optional>

// Small helpers shared by the CLI's commands: one-line errors, strict number parsing.
namespace cli {

int fail(int code, const QString &message);
// Writes `bytes` to `path` whole or not at all (oe::StagedOutput: a symbolic link at `path` is
// replaced, never written through) and says so on stderr; ExitIo with a one-line reason naming
// the path otherwise.
int writeFile(const QString &path, const QByteArray &bytes);
// The exit code for a core error: usage 2, invalid data 4, I/O or connection 3.
int exitCodeFor(const oe::SourceError &error);
// Parses `arguments`; false after a one-line usage error, also when an option is given twice
// (the CLI never picks one of two values silently).
bool parse(QCommandLineParser &parser, const QStringList &arguments);
// A command's --help on stdout, its usage line naming the command ("usage: outlier-explorer-cli
// split [options]") rather than the path the binary was started from. The man page and the bash
// completion are generated from this text (packaging/cli-docs.py).
void printHelp(const QCommandLineParser &parser);
// Every command's preamble: parses `arguments` (a one-line error on a usage error) and prints
// the help for --help. nullopt to go on with the command, else the exit code to return.
std::optional<int> parseOrHelp(QCommandLineParser &parser, const QStringList &arguments);
// Parses a whole-number option within [minimum, maximum]; prints a usage error naming the
// option and its range if invalid.
bool unsignedOption(const QCommandLineParser &parser, const QString &name,
                    std::optional<std::uint64_t> &out, std::uint64_t minimum = 0,
                    std::uint64_t maximum = std::numeric_limits<std::uint64_t>::max());
// A threshold option (a size in bytes, an array's keep): a whole number from `minimum` up to
// oe::ThresholdRange's maximum, the window's limit; above it, the one-line usage error the
// window's box shows too, naming the option.
bool thresholdOption(const QCommandLineParser &parser, const QString &name,
                     std::optional<std::uint64_t> &out, std::uint64_t minimum = 0);
// Parses a finite number within [minimum, maximum] (NaN and infinities are refused).
bool doubleOption(const QCommandLineParser &parser, const QString &name, double &out,
                  double minimum, double maximum);
bool stderrIsTerminal();
// Set by the first SIGINT, SIGTERM or SIGHUP once installed (the first call installs the handlers);
// a second signal ends the process at once, as usual.
const std::atomic<bool> *interruptFlag();

} // namespace cli
