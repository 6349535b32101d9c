// outlier-explorer-cli: the headless face of the core library, a contract for scripts.
#include "AnalyzeCommand.h"
#include "CliSupport.h"
#include "CodegenCommand.h"
#include "DemoDataCommand.h"
#include "GuardCommand.h"
#include "HistoryCommand.h"
#include "LiveCommands.h"
#include "ReportCommand.h"
#include "ReportRenderer.h"
#include "RewriteCommand.h"
#include "SplitCommands.h"
#include "WatchCommand.h"
#include "WhatIfCommand.h"

#include <QCoreApplication>

#include <functional>
#include <memory>
#include <vector>

#include <csignal>
#include <cstdio>

namespace {

// Every command once: its name, what it does (the usage's line, which the man page, the bash
// completion and the README's table follow) and what runs it.
struct Command
{
    const char *name;
    const char *what;
    std::function<int(const QStringList &)> run;
};

std::vector<Command> commands(const ReportRenderer *renderer, const QString &rendererError)
{
    using SplitAction = SplitCommands::Action;
    return {
        {"analyze", "analyse a dump or a live collection, write CSV reports", AnalyzeCommand::run},
        {"list", "list databases and collections with their statistics", LiveCommands::list},
        {"import", "bulk-load a .bson dump into a collection", LiveCommands::import},
        {"test-connection", "report a server's version, topology and capabilities",
         LiveCommands::testConnection},
        {"split", "move array overflow into an overflow collection (--dry-run first)",
         [](const QStringList &a) { return SplitCommands::run(SplitAction::Split, a); }},
        {"verify", "check a split against its journal",
         [](const QStringList &a) { return SplitCommands::run(SplitAction::Verify, a); }},
        {"rollback", "undo a split",
         [](const QStringList &a) { return SplitCommands::run(SplitAction::Rollback, a); }},
        {"guard", "keep a split array at its keep, or a field to its types, with a validator",
         GuardCommand::run},
        {"rewrite",
         "cure a field in place: keys to an array, a type, extract, GridFS, attributes, a "
         "rename (--rollback undoes it)",
         RewriteCommand::run},
        {"codegen", "the application's read and write paths for a split layout",
         CodegenCommand::run},
        {"whatif", "time appends to big documents, unbounded vs split, on a server",
         WhatIfCommand::run},
        {"report", "analyse and write one shareable HTML or PDF report",
         [renderer, rendererError](const QStringList &a) {
             return ReportCommand::run(a, renderer, rendererError);
         }},
        {"history", "the analyses kept so far: list, export, forecast growth", HistoryCommand::run},
        {"watch", "report documents crossing a threshold as they do (--once for cron)",
         WatchCommand::run},
        {"demo-data", "write the deterministic demo datasets", DemoDataCommand::run},
    };
}

QByteArray usage(const std::vector<Command> &all)
{
    QByteArray out = "usage: outlier-explorer-cli <command> [options]\n\ncommands:\n";
    for (const Command &c : all)
        out += "  " + QByteArray(c.name).leftJustified(17, ' ') + c.what + '\n';
    out += "\n<command> --help lists a command's options.\n\n"
           "exit codes: 0 success, 2 usage, 3 I/O or connection, 4 invalid data, 130 "
           "interrupted\n";
    return out;
}

} // namespace

int main(int argc, char *argv[])
{
    // A file over the size limit (ulimit -f) fails its write with EFBIG, reported with the path
    // and the temporary file removed, instead of killing the process with neither.
    std::signal(SIGXFSZ, SIG_IGN);
    // `report` draws its charts with the desktop app's chart widget, from the report plugin
    // (which makes the widget application they need; offscreen unless the caller chose a
    // platform). Every other command stays headless, and the binary links no QtWidgets.
    const bool report = argc > 1 && qstrcmp(argv[1], "report") == 0;
    std::unique_ptr<ReportRenderer> renderer; // outlives the application it made
    QString rendererError;
    if (report) {
        if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        renderer = ReportRenderer::load(&rendererError);
    }
    const std::unique_ptr<QCoreApplication> app(renderer ? renderer->application(argc, argv)
                                                         : new QCoreApplication(argc, argv));
    QCoreApplication::setApplicationName(QStringLiteral("outlier-explorer-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION));
    QStringList args = QCoreApplication::arguments();
    const std::vector<Command> all = commands(renderer.get(), rendererError);
    if (args.size() < 2) {
        std::fputs(usage(all).constData(), stderr);
        return ExitUsage;
    }
    const QString command = args.takeAt(1);
    if (command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        std::fputs(usage(all).constData(), stdout);
        return ExitSuccess;
    }
    if (command == QLatin1String("--version")) {
        std::printf("outlier-explorer-cli %s\n", PROJECT_VERSION);
        return ExitSuccess;
    }
    for (const Command &c : all)
        if (command == QLatin1String(c.name))
            return c.run(args);
    return cli::fail(ExitUsage, QStringLiteral("unknown command '%1' (try --help)").arg(command));
}
