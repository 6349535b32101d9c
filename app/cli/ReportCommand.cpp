#include "ReportCommand.h"

#include "history/SourceForecast.h"

#include "AnalyzeCommand.h"
#include "CliSupport.h"
#include "ReportRenderer.h"
#include "ShapeCliOptions.h"
#include "export/ReportOptions.h"
#include "migration/MigrationSession.h"

#include <cstdio>

namespace {

void addReportOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("page-size"), QStringLiteral("PDF paper: a4 (default) or letter."),
         QStringLiteral("SIZE")},
        {QStringLiteral("migration"),
         QStringLiteral("Include the migration of this array field (with --uri): its journal "
                        "record, layout and a fresh verification."),
         QStringLiteral("FIELD")},
    });
}

// The journal's run for the field, verified now: the report's layout, log and verdict.
int addMigration(const oe::AnalysisResult &result, const QString &field, oe::ReportOptions *options)
{
    if (result.request.source.kind != oe::SourceRef::Kind::Collection)
        return cli::fail(ExitUsage, QStringLiteral("--migration goes with --uri"));
    oe::SplitConfig config;
    config.collection = result.request.source.collection;
    config.field = field;
    oe::MigrationSession session(result.request.source, config);
    oe::SourceError error;
    oe::RunState state{};
    if (!session.followJournal(&state, &error))
        return cli::fail(cli::exitCodeFor(error), error.toString());
    const oe::MigrationStep step = session.verify();
    if (!step.ok)
        return cli::fail(cli::exitCodeFor(step.error), step.error.toString());
    const oe::VerifyReport &verify = step.verify;
    options->layout = session.config();
    options->migrationLog = QStringLiteral("journal: %1 split by the pattern (state %2)")
                                .arg(field, oe::journalText(state));
    options->verification =
        QStringLiteral("Verified: %1 documents checked, %2 matching, %3 mismatches, %4 "
                       "element(s) appended since the split.")
            .arg(verify.checked)
            .arg(verify.matching)
            .arg(verify.mismatches)
            .arg(verify.appended);
    return ExitSuccess;
}

// The plugin `run` loaded (or why it could not be), for writeReport.
const ReportRenderer *g_renderer = nullptr;
QString g_rendererError;

int writeReport(const QCommandLineParser &parser, const oe::AnalysisResult &result)
{
    const QString out = parser.value(QStringLiteral("out"));
    if (!oe::ReportOptions::isSupportedFile(out))
        return cli::fail(ExitUsage,
                         QStringLiteral("--out %1: the report is .html or .pdf").arg(out));
    oe::ReportOptions options;
    const QString paper = parser.value(QStringLiteral("page-size")).toLower();
    if (!paper.isEmpty() && paper != QLatin1String("a4") && paper != QLatin1String("letter"))
        return cli::fail(ExitUsage,
                         QStringLiteral("--page-size expects a4 or letter, got '%1'").arg(paper));
    options.pageSize = paper == QLatin1String("letter") ? oe::ReportOptions::PageSize::Letter
                                                        : oe::ReportOptions::PageSize::A4;
    if (parser.isSet(QStringLiteral("migration")))
        if (const int rc =
                addMigration(result, parser.value(QStringLiteral("migration")), &options);
            rc != ExitSuccess)
            return rc;
    if (const int rc = cli::readAnatomy(parser, result, &options.anatomy); rc != ExitSuccess)
        return rc;
    options.forecast =
        oe::SourceForecast::linesFor(result.request.source, double(result.outliers.size.value));
    if (!g_renderer)
        return cli::fail(ExitIo, g_rendererError);
    QString error;
    if (!g_renderer->write(result, options, out, &error))
        return cli::fail(ExitIo, error);
    if (!parser.isSet(QStringLiteral("quiet")))
        std::printf("wrote %s\n", qPrintable(out));
    return ExitSuccess;
}

} // namespace

namespace ReportCommand {

int run(const QStringList &arguments, const ReportRenderer *renderer, const QString &rendererError)
{
    g_renderer = renderer;
    g_rendererError = rendererError;
    // Without the renderer, say so before reading anything (--help still answers).
    const bool help =
        arguments.contains(QStringLiteral("--help")) || arguments.contains(QStringLiteral("-h"));
    if (!renderer && !help)
        return cli::fail(ExitIo, rendererError);
    return AnalyzeCommand::runForReport(arguments, addReportOptions, writeReport);
}

} // namespace ReportCommand
