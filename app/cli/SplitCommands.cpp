#include "SplitCommands.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "LayoutOptions.h"
#include "bson/DocumentId.h"
#include "migration/MigrationSession.h"
#include "output/CsvWriter.h"
#include "output/StagedOutput.h"
#include "split/SplitPlanner.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLocale>

#include <cstdio>
#include <optional>

namespace {

QString count(std::uint64_t n)
{
    return QLocale::c().toString(qulonglong(n));
}

QString bytes(std::uint64_t n)
{
    return QLocale::c().formattedDataSize(qint64(n), 1, QLocale::DataSizeIecFormat);
}

void printPlan(const oe::SplitPlan &plan, const oe::SplitConfig &c)
{
    std::printf("documents scanned: %s\n", qPrintable(count(plan.documents)));
    std::printf("documents to split: %s (%s already split)\n", qPrintable(count(plan.affected)),
                qPrintable(count(plan.alreadySplit)));
    std::printf("elements to move: %s (%s) into %s overflow document(s) of %s\n",
                qPrintable(count(plan.elementsMoved)), qPrintable(bytes(plan.bytesMoved)),
                qPrintable(count(plan.overflowDocuments)), qPrintable(c.overflowCollection));
    std::printf("largest primary after: %s (_id %s); largest page: %s\n",
                qPrintable(bytes(plan.largestPrimaryAfter)),
                qPrintable(oe::DocumentId::toRelaxedJson(plan.largestPrimaryId)),
                qPrintable(bytes(plan.largestPageBytes)));
    std::printf("document sizes before: p50 %s, p99 %s, max %s\n",
                qPrintable(bytes(plan.sizesBefore.quantile(0.5))),
                qPrintable(bytes(plan.sizesBefore.quantile(0.99))),
                qPrintable(bytes(plan.sizesBefore.max())));
    std::printf("document sizes after:  p50 %s, p99 %s, max %s\n",
                qPrintable(bytes(plan.sizesAfter.quantile(0.5))),
                qPrintable(bytes(plan.sizesAfter.quantile(0.99))),
                qPrintable(bytes(plan.sizesAfter.max())));
    if (plan.skippedDocuments > 0)
        std::printf("skipped: %s document(s) left as they are; first: %s\n",
                    qPrintable(count(plan.skippedDocuments)), qPrintable(plan.skipped.value(0)));
    for (const QString &s : plan.skipped.mid(1))
        std::printf("skipped: %s\n", qPrintable(s));
    for (const QString &p : plan.problems)
        std::printf("cannot split: %s\n", qPrintable(p));
}

void printReport(const oe::VerifyReport &r)
{
    std::printf(
        "checked: %s, matching: %s, mismatches: %s, elements appended since the split: %s\n",
        qPrintable(count(r.checked)), qPrintable(count(r.matching)),
        qPrintable(count(r.mismatches)), qPrintable(count(r.appended)));
    for (const QString &line : r.details)
        std::printf("mismatch: %s\n", qPrintable(line));
}

// A live rollback's findings: it checks each document against its journal as it restores it
// (and again on a retry), so only the mismatches are its to report.
void printMismatches(const oe::VerifyReport &r)
{
    std::printf("mismatches: %s\n", qPrintable(count(r.mismatches)));
    for (const QString &line : r.details)
        std::printf("mismatch: %s\n", qPrintable(line));
}

void printProgress(const oe::MigrationProgress &p)
{
    // A wait before any work (an interrupted run's last writes) is said once, as a note.
    static QString said;
    if (p.phase.startsWith(QLatin1String("waiting")) && p.phase != said) {
        said = p.phase;
        std::printf("note: %s\n", qPrintable(p.phase));
        std::fflush(stdout);
    }
    if (!cli::stderrIsTerminal())
        return;
    std::fprintf(stderr, "\r  %s: %s examined, %s done, %s retried, %s skipped, %.1f s   ",
                 qPrintable(p.phase), qPrintable(count(p.examined)), qPrintable(count(p.migrated)),
                 qPrintable(count(p.retried)), qPrintable(count(p.skipped)), p.seconds);
    std::fflush(stderr);
}

// verify and rollback follow the run recorded in the journal. A layout option given on the
// command line that says otherwise is refused (empty when all agree) rather than overridden.
QString disagreement(const QCommandLineParser &parser, const oe::SplitConfig &journaled)
{
    const std::pair<const char *, QString> layout[] = {
        {"keep", QString::number(journaled.keep)},
        {"page-size", QString::number(journaled.pageSize)},
        {"overflow-collection", journaled.overflowCollection},
        {"link-field", journaled.linkField},
        {"page-field", journaled.pageField},
        {"items-field", journaled.itemsField},
        {"flag-field", journaled.flagField},
        {"count-field", journaled.countField},
        {"pages-field", journaled.pagesField}};
    for (const auto &[name, recorded] : layout) {
        const QString option = QString::fromLatin1(name);
        if (!parser.isSet(option))
            continue;
        QString given = parser.value(option).trimmed();
        if (bool ok = false;
            option == QLatin1String("keep") || option == QLatin1String("page-size"))
            if (const qlonglong n = given.toLongLong(&ok); ok)
                given = QString::number(n);
        if (given != recorded)
            return QStringLiteral("--%1 %2 does not match the split in the journal (%1 %3); leave "
                                  "it out: verify and rollback follow the journal")
                .arg(option, parser.value(option),
                     recorded.isEmpty() ? QStringLiteral("''") : recorded);
    }
    return {};
}

void printRun(const oe::SplitConfig &config, oe::RunState state)
{
    std::printf("run of '%s' (state %s): keep %lld, page size %lld, overflow %s\n",
                qPrintable(config.field), oe::journalWord(state),
                static_cast<long long>(config.keep), static_cast<long long>(config.pageSize),
                qPrintable(config.overflowCollection));
}

QString actionName(SplitCommands::Action action)
{
    return action == SplitCommands::Action::Split    ? QStringLiteral("split")
           : action == SplitCommands::Action::Verify ? QStringLiteral("verify")
                                                     : QStringLiteral("rollback");
}

void addSplitOptions(QCommandLineParser &parser, SplitCommands::Action action)
{
    parser.setApplicationDescription(
        action == SplitCommands::Action::Split
            ? QStringLiteral(
                  "Apply the outlier pattern: keep N elements, move the rest to overflow pages.")
        : action == SplitCommands::Action::Verify
            ? QStringLiteral("Check a split against its journal: nothing lost, nothing duplicated.")
            : QStringLiteral("Undo a split: every document back as it was."));
    parser.addHelpOption();
    cli::addConnectionOptions(parser);
    cli::addNamespaceOptions(parser);
    cli::addLayoutOptions(parser);
    parser.addOptions({
        {QStringLiteral("dump"),
         QStringLiteral("A .bson dump (split: the input; verify/rollback: the split output)."),
         QStringLiteral("FILE")},
        {QStringLiteral("out-dir"), QStringLiteral("Where offline results and plan.csv go."),
         QStringLiteral("DIR")},
        {QStringLiteral("filter"),
         QStringLiteral("Only documents matching this query (extended JSON)."),
         QStringLiteral("JSON")},
        {QStringLiteral("dry-run"),
         QStringLiteral("Preview only: print the totals and write plan.csv.")},
        {QStringLiteral("backup-collection"), QStringLiteral("Copy original documents here first."),
         QStringLiteral("NAME")},
        {QStringLiteral("batch"),
         QStringLiteral("Documents per round of bulk writes (default 200)."), QStringLiteral("N")},
        {QStringLiteral("max-docs-per-sec"),
         QStringLiteral("Throttle a split or a rollback to R documents per second."),
         QStringLiteral("R")},
        {QStringLiteral("strict"),
         QStringLiteral("Refuse the split when the field is not an array in some documents "
                        "(default: leave those as they are and count them as skipped).")},
        {QStringLiteral("yes"), QStringLiteral("Confirm writing to the cluster.")},
        {QStringLiteral("remove-leftovers"),
         QStringLiteral("rollback: once every document is back, remove the empty overflow "
                        "collection, this run's journal records and the backup collection.")},
    });
}

// The split's layout from the options (checked later, by SplitConfig::problems()).
bool configFrom(const QCommandLineParser &parser, SplitCommands::Action action,
                oe::SplitConfig *config)
{
    if (!cli::layoutFrom(parser, config))
        return false;
    if (action == SplitCommands::Action::Split && !parser.isSet(QStringLiteral("keep"))) {
        cli::fail(ExitUsage, QStringLiteral("split needs --keep N"));
        return false;
    }
    if (parser.isSet(QStringLiteral("filter")))
        config->filter = parser.value(QStringLiteral("filter"));
    config->strict = parser.isSet(QStringLiteral("strict"));
    return true;
}

bool optionsFrom(const QCommandLineParser &parser, oe::MigrationOptions *options)
{
    std::optional<std::uint64_t> batch;
    if (!cli::unsignedOption(parser, QStringLiteral("batch"), batch, 1, 100'000) ||
        !cli::doubleOption(parser, QStringLiteral("max-docs-per-sec"), options->maxDocsPerSecond, 0,
                           1e9))
        return false;
    options->batch = std::size_t(batch.value_or(200));
    options->backupCollection = parser.value(QStringLiteral("backup-collection"));
    return true;
}

// A dump, or a live collection (its database defaults to the URI's); names checked.
int targetFrom(const QCommandLineParser &parser, const QString &name, oe::SourceRef *target)
{
    if (!parser.isSet(QStringLiteral("uri"))) {
        target->kind = oe::SourceRef::Kind::Dump;
        target->dumpPath = parser.value(QStringLiteral("dump"));
        return ExitSuccess;
    }
    target->kind = oe::SourceRef::Kind::Collection;
    if (!cli::connectionSettings(parser, &target->settings))
        return ExitUsage;
    target->database = cli::databaseOf(parser, target->settings);
    target->collection = parser.value(QStringLiteral("collection"));
    if (target->database.isEmpty() || target->collection.isEmpty())
        return cli::fail(ExitUsage, QStringLiteral("%1 --uri needs --db DB (or a database in the "
                                                   "URI) and --collection C")
                                        .arg(name));
    if (!cli::namespaceNames(target->database, target->collection) ||
        !cli::namespaceNames({}, parser.value(QStringLiteral("backup-collection")),
                             QStringLiteral("--backup-collection")))
        return ExitUsage;
    return ExitSuccess;
}

// --dry-run (and a live split without --yes): the plan, and plan.csv when asked for.
int runPlan(oe::MigrationSession &session, const QString &outDir, bool writeCsv)
{
    const QString planPath =
        QDir(outDir.isEmpty() ? QStringLiteral(".") : outDir).filePath(QStringLiteral("plan.csv"));
    oe::StagedOutput output; // a symbolic link at plan.csv is replaced, never written through
    QIODevice *file = nullptr;
    oe::SourceError error;
    oe::MigrationStep step;
    if (writeCsv) {
        QDir().mkpath(QFileInfo(planPath).absolutePath());
        file = output.add(planPath, &error);
        if (!file)
            return cli::fail(ExitIo, error.toString());
    }
    {
        std::optional<oe::CsvWriter> csv;
        if (writeCsv)
            csv.emplace(file, QStringList{QStringLiteral("_id"), QStringLiteral("size_before"),
                                          QStringLiteral("size_after"), QStringLiteral("length"),
                                          QStringLiteral("kept"), QStringLiteral("moved"),
                                          QStringLiteral("pages")});
        step = session.plan([&](const oe::PlanRow &r) {
            if (csv)
                csv->addRow({r.id, QString::number(r.sizeBefore), QString::number(r.sizeAfter),
                             QString::number(r.length), QString::number(r.kept),
                             QString::number(r.moved), QString::number(r.pages)});
        });
    }
    if (!step.ok)
        return cli::fail(cli::exitCodeFor(step.error), step.error.toString());
    printPlan(step.plan, session.config());
    if (!writeCsv)
        return cli::fail(ExitUsage,
                         QStringLiteral("nothing written: add --yes to apply this plan"));
    if (!output.commit(nullptr, &error))
        return cli::fail(ExitIo, error.toString());
    std::printf("plan: %s\n", qPrintable(planPath));
    return ExitSuccess;
}

void printNotes(const oe::MigrationSession &session)
{
    for (const QString &note : session.notes())
        std::printf("note: %s\n", qPrintable(note));
}

int runSplit(oe::MigrationSession &session, const QCommandLineParser &parser,
             const oe::MigrationOptions &options, const oe::SourceRef &target)
{
    oe::SourceError error;
    if (!session.prepare(&error))
        return cli::fail(cli::exitCodeFor(error), error.toString());
    printNotes(session);
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    const QString outDir = parser.value(QStringLiteral("out-dir"));
    if (dryRun || (session.isLive() && !parser.isSet(QStringLiteral("yes"))))
        return runPlan(session, outDir, dryRun);
    const std::atomic<bool> *interrupted = cli::interruptFlag();
    const oe::MigrationStep step = session.apply(options, interrupted, printProgress);
    if (cli::stderrIsTerminal() && session.isLive())
        std::fputs("\n", stderr);
    if (!session.isLive()) {
        if (!step.ok)
            return cli::fail(cli::exitCodeFor(step.error), step.error.toString());
        printPlan(step.plan, session.config());
        for (const QString &f : step.written)
            std::printf("wrote %s\n", qPrintable(f));
        return ExitSuccess;
    }
    const oe::MigrationProgress &progress = step.progress;
    const oe::SplitConfig &config = session.config();
    std::printf("split %s document(s) of %s.%s: %s element(s) moved into %s page(s) of %s; %s "
                "retried, %s skipped; %.2f s\n",
                qPrintable(count(progress.migrated)), qPrintable(target.database),
                qPrintable(config.collection), qPrintable(count(progress.elementsMoved)),
                qPrintable(count(progress.pagesWritten)), qPrintable(config.overflowCollection),
                qPrintable(count(progress.retried)), qPrintable(count(progress.skipped)),
                progress.seconds);
    printNotes(session);
    if (!step.ok)
        return cli::fail(cli::exitCodeFor(step.error), step.error.toString());
    if (interrupted->load())
        return cli::fail(ExitInterrupted,
                         QStringLiteral("interrupted: stopped after the current batch; run split "
                                        "again to resume"));
    return ExitSuccess;
}

int runVerify(oe::MigrationSession &session, oe::RunState state)
{
    const oe::MigrationStep step = session.verify();
    if (!step.ok)
        return cli::fail(cli::exitCodeFor(step.error), step.error.toString());
    const oe::VerifyReport &report = step.verify;
    printReport(report);
    if (state == oe::RunState::RollingBack && !report.ok())
        std::printf("note: a rollback of this run did not finish; documents it already "
                    "restored show as not flagged: run rollback again to finish it\n");
    return report.ok() ? ExitSuccess
                       : cli::fail(ExitInvalidData,
                                   QStringLiteral("%1 mismatch(es)").arg(report.mismatches));
}

// After a complete live rollback: what is left on the server is said, and removed with
// --remove-leftovers.
int reportLeftovers(oe::MigrationSession &session, const QCommandLineParser &parser,
                    const oe::MigrationOptions &options)
{
    oe::SourceError error;
    std::vector<oe::RollbackLeftovers::Item> items;
    if (!session.leftovers(options.backupCollection, &items, &error))
        return cli::fail(cli::exitCodeFor(error), error.toString());
    if (items.empty())
        return ExitSuccess;
    if (!parser.isSet(QStringLiteral("remove-leftovers"))) {
        for (const auto &item : items)
            std::printf("left: %s\n", qPrintable(item.describe()));
        std::printf("note: remove them with rollback --remove-leftovers\n");
        return ExitSuccess;
    }
    QStringList removed;
    if (!session.removeLeftovers(options.backupCollection, &removed, &error))
        return cli::fail(cli::exitCodeFor(error), error.toString());
    for (const QString &what : removed)
        std::printf("removed: %s\n", qPrintable(what));
    return ExitSuccess;
}

int runRollback(oe::MigrationSession &session, const QCommandLineParser &parser,
                const oe::MigrationOptions &options)
{
    if (session.isLive() && !parser.isSet(QStringLiteral("yes")))
        return cli::fail(ExitUsage,
                         QStringLiteral("rollback writes to the cluster: add --yes to confirm"));
    if (session.isLive())
        std::printf("note: safe while the application appends with the generated write path "
                    "(its slot counter guards each write-back); older application code should "
                    "stop writing to this collection first, and afterwards the application "
                    "appends with a plain $push again\n");
    const std::atomic<bool> *interrupted = session.isLive() ? cli::interruptFlag() : nullptr;
    const oe::MigrationStep step = session.rollback(options, interrupted, printProgress);
    const oe::VerifyReport &report = step.verify;
    if (!session.isLive()) {
        if (!step.ok)
            return cli::fail(cli::exitCodeFor(step.error), step.error.toString());
        printReport(report);
        for (const QString &f : step.written)
            std::printf("wrote %s\n", qPrintable(f));
        return ExitSuccess;
    }
    const oe::MigrationProgress &progress = step.progress;
    if (cli::stderrIsTerminal())
        std::fputs("\n", stderr);
    std::printf("restored %s document(s), %s retried, %s skipped in %.2f s\n",
                qPrintable(count(progress.migrated)), qPrintable(count(progress.retried)),
                qPrintable(count(progress.skipped)), progress.seconds);
    for (const QString &note : progress.notes)
        std::printf("note: %s\n", qPrintable(note));
    printMismatches(report);
    if (!step.ok)
        return cli::fail(cli::exitCodeFor(step.error), step.error.toString());
    if (interrupted->load())
        return cli::fail(ExitInterrupted, QStringLiteral("interrupted: stopped after the current "
                                                         "batch; run rollback again to finish"));
    if (!report.ok())
        return cli::fail(ExitInvalidData,
                         QStringLiteral("%1 document(s) not restored").arg(report.mismatches));
    return reportLeftovers(session, parser, options);
}

// Which source, and the options every action needs.
int checkCombinations(const QCommandLineParser &parser, const QString &name)
{
    if (parser.isSet(QStringLiteral("uri")) == parser.isSet(QStringLiteral("dump")))
        return cli::fail(
            ExitUsage,
            QStringLiteral("%1 needs --uri URI --db DB --collection C, or --dump FILE").arg(name));
    if (!parser.isSet(QStringLiteral("field")))
        return cli::fail(ExitUsage, QStringLiteral("%1 needs --field PATH").arg(name));
    return ExitSuccess;
}

// Offline writes go to --out-dir (a dry run may default to the current directory).
int checkOfflineOutput(const QCommandLineParser &parser, SplitCommands::Action action,
                       const QString &name)
{
    if (parser.isSet(QStringLiteral("uri")) || action == SplitCommands::Action::Verify ||
        !parser.value(QStringLiteral("out-dir")).isEmpty() ||
        parser.isSet(QStringLiteral("dry-run")))
        return ExitSuccess;
    return cli::fail(ExitUsage, QStringLiteral("%1 --dump needs --out-dir DIR").arg(name));
}

} // namespace

int SplitCommands::run(Action action, const QStringList &arguments)
{
    const QString name = actionName(action);
    QCommandLineParser parser;
    addSplitOptions(parser, action);
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    oe::SplitConfig config;
    oe::MigrationOptions options;
    oe::SourceRef target;
    if (const int rc = checkCombinations(parser, name); rc != ExitSuccess)
        return rc;
    if (!configFrom(parser, action, &config) || !optionsFrom(parser, &options))
        return ExitUsage;
    if (const int rc = targetFrom(parser, name, &target); rc != ExitSuccess)
        return rc;
    oe::MigrationSession session(target, config, parser.value(QStringLiteral("out-dir")));
    if (!session.isLive())
        if (const QStringList problems = session.config().problems(); !problems.isEmpty())
            return cli::fail(ExitUsage, problems.join(QStringLiteral("; ")));
    if (action == Action::Split) {
        if (const int rc = checkOfflineOutput(parser, action, name); rc != ExitSuccess)
            return rc;
        return runSplit(session, parser, options, target);
    }
    oe::RunState state = oe::RunState::Applied;
    oe::SourceError error;
    if (!session.followJournal(&state, &error))
        return cli::fail(cli::exitCodeFor(error), error.toString());
    if (const QString problem = disagreement(parser, session.config()); !problem.isEmpty())
        return cli::fail(ExitUsage, problem);
    printRun(session.config(), state);
    if (action == Action::Verify)
        return runVerify(session, state);
    if (const int rc = checkOfflineOutput(parser, action, name); rc != ExitSuccess)
        return rc;
    return runRollback(session, parser, options);
}
