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

#include <memory>

#include <csignal>
#include <cstdio>

namespace {
const char kUsage[] =
    "usage: outlier-explorer-cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  analyze          analyse a dump or a live collection, write CSV reports\n"
    "  list             list databases and collections with their statistics\n"
    "  import           bulk-load a .bson dump into a collection\n"
    "  test-connection  report a server's version, topology and capabilities\n"
    "  split            move array overflow into an overflow collection (--dry-run first)\n"
    "  verify           check a split against its journal\n"
    "  rollback         undo a split\n"
    "  guard            keep a split array at its keep, or a field to its types, with a "
    "validator\n"
    "  rewrite          rewrite a field in place: keys to an array, a type (--rollback undoes "
    "it)\n"
    "  codegen          the application's read and write paths for a split layout\n"
    "  whatif           time appends to big documents, unbounded vs split, on a server\n"
    "  report           analyse and write one shareable HTML or PDF report\n"
    "  history          the analyses kept so far: list, export, forecast growth\n"
    "  watch            report documents crossing a threshold as they do (--once for cron)\n"
    "  demo-data        write the deterministic demo datasets\n"
    "\n"
    "<command> --help lists a command's options.\n"
    "\n"
    "exit codes: 0 success, 2 usage, 3 I/O or connection, 4 invalid data, 130 interrupted\n";
}

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
    if (args.size() < 2) {
        std::fputs(kUsage, stderr);
        return ExitUsage;
    }
    const QString command = args.takeAt(1);
    if (command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        std::fputs(kUsage, stdout);
        return ExitSuccess;
    }
    if (command == QLatin1String("--version")) {
        std::printf("outlier-explorer-cli %s\n", PROJECT_VERSION);
        return ExitSuccess;
    }
    if (command == QLatin1String("analyze"))
        return AnalyzeCommand::run(args);
    if (command == QLatin1String("codegen"))
        return CodegenCommand::run(args);
    if (command == QLatin1String("report"))
        return ReportCommand::run(args, renderer.get(), rendererError);
    if (command == QLatin1String("whatif"))
        return WhatIfCommand::run(args);
    if (command == QLatin1String("demo-data"))
        return DemoDataCommand::run(args);
    if (command == QLatin1String("list"))
        return LiveCommands::list(args);
    if (command == QLatin1String("import"))
        return LiveCommands::import(args);
    if (command == QLatin1String("test-connection"))
        return LiveCommands::testConnection(args);
    if (command == QLatin1String("watch"))
        return WatchCommand::run(args);
    if (command == QLatin1String("history"))
        return HistoryCommand::run(args);
    if (command == QLatin1String("guard"))
        return GuardCommand::run(args);
    if (command == QLatin1String("rewrite"))
        return RewriteCommand::run(args);
    if (command == QLatin1String("split"))
        return SplitCommands::run(SplitCommands::Action::Split, args);
    if (command == QLatin1String("verify"))
        return SplitCommands::run(SplitCommands::Action::Verify, args);
    if (command == QLatin1String("rollback"))
        return SplitCommands::run(SplitCommands::Action::Rollback, args);
    return cli::fail(ExitUsage, QStringLiteral("unknown command '%1' (try --help)").arg(command));
}
