#include "SplitCommands.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "CsvWriter.h"
#include "DocumentId.h"
#include "DumpFileSource.h"
#include "JournalEntry.h"
#include "LiveCollectionSource.h"
#include "MigrationRollback.h"
#include "MigrationVerifier.h"
#include "MongoConnection.h"
#include "OfflineSplitter.h"
#include "OverflowMigrator.h"
#include "SplitPlanner.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>

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

void printProgress(const oe::MigrationProgress &p)
{
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
                qPrintable(config.field), oe::journalWord(state), static_cast<long long>(config.keep),
                static_cast<long long>(config.pageSize), qPrintable(config.overflowCollection));
}

} // namespace

int SplitCommands::run(Action action, const QStringList &arguments)
{
    const QString name = action == Action::Split    ? QStringLiteral("split")
                         : action == Action::Verify ? QStringLiteral("verify")
                                                    : QStringLiteral("rollback");
    QCommandLineParser parser;
    parser.setApplicationDescription(
        action == Action::Split
            ? QStringLiteral(
                  "Apply the outlier pattern: keep N elements, move the rest to overflow pages.")
        : action == Action::Verify
            ? QStringLiteral("Check a split against its journal: nothing lost, nothing duplicated.")
            : QStringLiteral("Undo a split: every document back as it was."));
    parser.addHelpOption();
    cli::addConnectionOptions(parser);
    cli::addNamespaceOptions(parser);
    parser.addOptions({
        {QStringLiteral("dump"),
         QStringLiteral("A .bson dump (split: the input; verify/rollback: the split output)."),
         QStringLiteral("FILE")},
        {QStringLiteral("out-dir"), QStringLiteral("Where offline results and plan.csv go."),
         QStringLiteral("DIR")},
        {QStringLiteral("field"), QStringLiteral("The array, in dot notation."),
         QStringLiteral("PATH")},
        {QStringLiteral("keep"), QStringLiteral("Elements left in the document."),
         QStringLiteral("N")},
        {QStringLiteral("page-size"),
         QStringLiteral("Elements per overflow document (default 1000)."), QStringLiteral("P")},
        {QStringLiteral("overflow-collection"), QStringLiteral("Default <collection>_overflow."),
         QStringLiteral("NAME")},
        {QStringLiteral("link-field"), QStringLiteral("Default parent_id."), QStringLiteral("F")},
        {QStringLiteral("page-field"), QStringLiteral("Default page."), QStringLiteral("F")},
        {QStringLiteral("items-field"), QStringLiteral("Default: the array's name."),
         QStringLiteral("F")},
        {QStringLiteral("flag-field"), QStringLiteral("Default has_extras."), QStringLiteral("F")},
        {QStringLiteral("count-field"), QStringLiteral("Optional: the total length."),
         QStringLiteral("F")},
        {QStringLiteral("pages-field"), QStringLiteral("Optional: the number of pages."),
         QStringLiteral("F")},
        {QStringLiteral("filter"),
         QStringLiteral("Only documents matching this query (extended JSON)."),
         QStringLiteral("JSON")},
        {QStringLiteral("dry-run"),
         QStringLiteral("Preview only: print the totals and write plan.csv.")},
        {QStringLiteral("backup-collection"), QStringLiteral("Copy original documents here first."),
         QStringLiteral("NAME")},
        {QStringLiteral("batch"),
         QStringLiteral("Documents per round of bulk writes (default 200)."), QStringLiteral("N")},
        {QStringLiteral("max-docs-per-sec"), QStringLiteral("Throttle."), QStringLiteral("R")},
        {QStringLiteral("strict"),
         QStringLiteral("Refuse the split when the field is not an array in some documents "
                        "(default: leave those as they are and count them as skipped).")},
        {QStringLiteral("yes"), QStringLiteral("Confirm writing to the cluster.")},
    });
    if (!cli::parse(parser, arguments))
        return ExitUsage;
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return ExitSuccess;
    }
    const bool live = parser.isSet(QStringLiteral("uri"));
    if (live == parser.isSet(QStringLiteral("dump")))
        return cli::fail(
            ExitUsage,
            QStringLiteral("%1 needs --uri URI --db DB --collection C, or --dump FILE").arg(name));
    if (!parser.isSet(QStringLiteral("field")))
        return cli::fail(ExitUsage, QStringLiteral("%1 needs --field PATH").arg(name));

    oe::SplitConfig config;
    config.field = parser.value(QStringLiteral("field"));
    bool ok = true;
    if (parser.isSet(QStringLiteral("keep"))) {
        config.keep = parser.value(QStringLiteral("keep")).toLongLong(&ok);
        if (!ok)
            return cli::fail(ExitUsage, QStringLiteral("--keep expects a whole number, got '%1'")
                                            .arg(parser.value(QStringLiteral("keep"))));
    } else if (action == Action::Split) {
        return cli::fail(ExitUsage, QStringLiteral("split needs --keep N"));
    }
    if (parser.isSet(QStringLiteral("page-size"))) {
        config.pageSize = parser.value(QStringLiteral("page-size")).toLongLong(&ok);
        if (!ok)
            return cli::fail(ExitUsage,
                             QStringLiteral("--page-size expects a whole number, got '%1'")
                                 .arg(parser.value(QStringLiteral("page-size"))));
    }
    const std::pair<const char *, QString *> names[] = {
        {"overflow-collection", &config.overflowCollection},
        {"link-field", &config.linkField},
        {"page-field", &config.pageField},
        {"items-field", &config.itemsField},
        {"flag-field", &config.flagField},
        {"count-field", &config.countField},
        {"pages-field", &config.pagesField},
        {"filter", &config.filter}};
    for (const auto &[option, target] : names)
        if (parser.isSet(QString::fromLatin1(option)))
            *target = parser.value(QString::fromLatin1(option));
    std::optional<std::uint64_t> batch;
    if (!cli::unsignedOption(parser, QStringLiteral("batch"), batch, 1, 100'000))
        return ExitUsage;
    oe::MigrationOptions options;
    options.batch = std::size_t(batch.value_or(200));
    options.backupCollection = parser.value(QStringLiteral("backup-collection"));
    if (!cli::doubleOption(parser, QStringLiteral("max-docs-per-sec"), options.maxDocsPerSecond, 0,
                           1e9))
        return ExitUsage;
    config.strict = parser.isSet(QStringLiteral("strict"));
    const QString outDir = parser.value(QStringLiteral("out-dir"));

    if (!live) {
        const QString dump = parser.value(QStringLiteral("dump"));
        config.collection = oe::OfflineSplitter::collectionOf(dump);
        config = config.withDefaults();
        if (const QStringList problems = config.problems(); !problems.isEmpty())
            return cli::fail(ExitUsage, problems.join(QStringLiteral("; ")));
        oe::SourceError error;
        if (action != Action::Split) {
            oe::SplitConfig journaled;
            oe::RunState state = oe::RunState::Applied;
            if (!oe::OfflineSplitter::journaledConfig(dump, config.field, &journaled, &state,
                                                      &error))
                return cli::fail(cli::exitCodeFor(error), error.toString());
            config = journaled.withDefaults();
            if (const QString problem = disagreement(parser, config); !problem.isEmpty())
                return cli::fail(ExitUsage, problem);
            printRun(config, state);
        }
        if (action == Action::Verify) {
            oe::VerifyReport report;
            if (!oe::OfflineSplitter::verify(dump, config, &report, &error))
                return cli::fail(cli::exitCodeFor(error), error.toString());
            printReport(report);
            return report.ok()
                       ? ExitSuccess
                       : cli::fail(ExitInvalidData,
                                   QStringLiteral("%1 mismatch(es)").arg(report.mismatches));
        }
        if (outDir.isEmpty() && !parser.isSet(QStringLiteral("dry-run")))
            return cli::fail(ExitUsage, QStringLiteral("%1 --dump needs --out-dir DIR").arg(name));
        QStringList written;
        if (action == Action::Rollback) {
            oe::VerifyReport report;
            if (!oe::OfflineSplitter::rollback(dump, outDir, config, &report, &written, &error))
                return cli::fail(cli::exitCodeFor(error), error.toString());
            printReport(report);
            for (const QString &f : written)
                std::printf("wrote %s\n", qPrintable(f));
            return ExitSuccess;
        }
        if (parser.isSet(QStringLiteral("dry-run"))) {
            const QString planPath = QDir(outDir.isEmpty() ? QStringLiteral(".") : outDir)
                                         .filePath(QStringLiteral("plan.csv"));
            QDir().mkpath(QFileInfo(planPath).absolutePath());
            QSaveFile file(planPath);
            if (!file.open(QIODevice::WriteOnly))
                return cli::fail(
                    ExitIo,
                    QStringLiteral("%1: cannot write: %2").arg(planPath, file.errorString()));
            oe::SplitPlan plan;
            {
                oe::CsvWriter csv(&file, {QStringLiteral("_id"), QStringLiteral("size_before"),
                                          QStringLiteral("size_after"), QStringLiteral("length"),
                                          QStringLiteral("kept"), QStringLiteral("moved"),
                                          QStringLiteral("pages")});
                oe::OfflineSplitter::plan(
                    dump, config, &plan, &error, nullptr, [&](const oe::PlanRow &r) {
                        csv.addRow({r.id, QString::number(r.sizeBefore),
                                    QString::number(r.sizeAfter), QString::number(r.length),
                                    QString::number(r.kept), QString::number(r.moved),
                                    QString::number(r.pages)});
                    });
            }
            if (error.isError())
                return cli::fail(cli::exitCodeFor(error), error.toString());
            if (!file.commit())
                return cli::fail(
                    ExitIo,
                    QStringLiteral("%1: cannot write: %2").arg(planPath, file.errorString()));
            printPlan(plan, config);
            std::printf("plan: %s\n", qPrintable(planPath));
            return plan.invalidDocuments
                       ? cli::fail(ExitInvalidData, QStringLiteral("%1 document(s) cannot be split")
                                                        .arg(plan.invalidDocuments))
                       : ExitSuccess;
        }
        oe::SplitPlan plan;
        if (!oe::OfflineSplitter::split(dump, outDir, config, &plan, &written, &error, nullptr))
            return cli::fail(cli::exitCodeFor(error), error.toString());
        printPlan(plan, config);
        for (const QString &f : written)
            std::printf("wrote %s\n", qPrintable(f));
        return ExitSuccess;
    }

    // Live.
    oe::ConnectionSettings settings;
    if (!cli::connectionSettings(parser, &settings))
        return ExitUsage;
    QString database = parser.value(QStringLiteral("db"));
    config.collection = parser.value(QStringLiteral("collection"));
    oe::SourceError error;
    auto connection = oe::MongoConnection::open(settings, &error);
    if (!connection)
        return cli::fail(cli::exitCodeFor(error), error.toString());
    if (database.isEmpty())
        database = connection->defaultDatabase();
    if (database.isEmpty() || config.collection.isEmpty())
        return cli::fail(
            ExitUsage,
            QStringLiteral("%1 --uri needs --db DB (or a database in the URI) and --collection C")
                .arg(name));
    if (!cli::namespaceNames(database, config.collection) ||
        !cli::namespaceNames({}, options.backupCollection, QStringLiteral("--backup-collection")))
        return ExitUsage;
    config = config.withDefaults();

    if (action == Action::Verify || action == Action::Rollback) {
        // The journal holds the configuration the split used; it is authoritative.
        oe::SplitConfig journaled;
        oe::RunState state = oe::RunState::Applied;
        if (oe::MigrationVerifier::journaledConfig(*connection, database, config.collection,
                                                   config.field, &journaled, &state, &error)) {
            config = journaled.withDefaults();
            if (const QString problem = disagreement(parser, config); !problem.isEmpty())
                return cli::fail(ExitUsage, problem);
            printRun(config, state);
        } else if (error.isError()) {
            return cli::fail(cli::exitCodeFor(error), error.toString());
        } else {
            return cli::fail(ExitUsage,
                             QStringLiteral("no migration of field '%1' in the journal %2.%3")
                                 .arg(config.field, database, config.journalCollection()));
        }
        oe::VerifyReport report;
        if (action == Action::Verify) {
            if (!oe::MigrationVerifier::verify(*connection, database, config, &report, &error))
                return cli::fail(cli::exitCodeFor(error), error.toString());
            printReport(report);
            if (state == oe::RunState::RollingBack && !report.ok())
                std::printf("note: a rollback of this run did not finish; documents it already "
                            "restored show as not flagged: run rollback again to finish it\n");
            return report.ok()
                       ? ExitSuccess
                       : cli::fail(ExitInvalidData,
                                   QStringLiteral("%1 mismatch(es)").arg(report.mismatches));
        }
        if (!parser.isSet(QStringLiteral("yes")))
            return cli::fail(
                ExitUsage, QStringLiteral("rollback writes to the cluster: add --yes to confirm"));
        const std::atomic<bool> *interrupted = cli::interruptFlag();
        oe::MigrationProgress progress;
        const bool done =
            oe::MigrationRollback::rollback(*connection, database, config, options, &report,
                                            &progress, &error, interrupted, printProgress);
        if (cli::stderrIsTerminal())
            std::fputs("\n", stderr);
        std::printf("restored %s document(s), %s retried, %s skipped in %.2f s\n",
                    qPrintable(count(progress.migrated)), qPrintable(count(progress.retried)),
                    qPrintable(count(progress.skipped)), progress.seconds);
        printReport(report);
        if (!done)
            return cli::fail(cli::exitCodeFor(error), error.toString());
        if (interrupted->load())
            return cli::fail(ExitInterrupted,
                             QStringLiteral("interrupted: stopped after the current batch; run "
                                            "rollback again to finish"));
        return report.ok()
                   ? ExitSuccess
                   : cli::fail(
                         ExitInvalidData,
                         QStringLiteral("%1 document(s) not restored").arg(report.mismatches));
    }

    oe::OverflowMigrator migrator(settings, database, config);
    if (!migrator.prepare(&error))
        return cli::fail(cli::exitCodeFor(error), error.toString());
    for (const QString &note : migrator.notes())
        std::printf("note: %s\n", qPrintable(note));
    const bool dryRun = parser.isSet(QStringLiteral("dry-run"));
    if (dryRun || !parser.isSet(QStringLiteral("yes"))) {
        oe::LiveQuery query;
        query.database = database;
        query.collection = config.collection;
        query.filter = config.filter;
        oe::LiveCollectionSource source(settings, query);
        const QString planPath = QDir(outDir.isEmpty() ? QStringLiteral(".") : outDir)
                                     .filePath(QStringLiteral("plan.csv"));
        QSaveFile file(planPath);
        if (dryRun) {
            QDir().mkpath(QFileInfo(planPath).absolutePath());
            if (!file.open(QIODevice::WriteOnly))
                return cli::fail(
                    ExitIo,
                    QStringLiteral("%1: cannot write: %2").arg(planPath, file.errorString()));
        }
        oe::SplitPlan plan;
        {
            std::optional<oe::CsvWriter> csv;
            if (dryRun)
                csv.emplace(&file, QStringList{QStringLiteral("_id"), QStringLiteral("size_before"),
                                               QStringLiteral("size_after"),
                                               QStringLiteral("length"), QStringLiteral("kept"),
                                               QStringLiteral("moved"), QStringLiteral("pages")});
            plan = oe::SplitPlanner::plan(source, config, nullptr, [&](const oe::PlanRow &r) {
                if (csv)
                    csv->addRow({r.id, QString::number(r.sizeBefore), QString::number(r.sizeAfter),
                                 QString::number(r.length), QString::number(r.kept),
                                 QString::number(r.moved), QString::number(r.pages)});
            });
        }
        if (plan.error.isError())
            return cli::fail(cli::exitCodeFor(plan.error), plan.error.toString());
        printPlan(plan, config);
        if (!dryRun)
            return cli::fail(ExitUsage,
                             QStringLiteral("nothing written: add --yes to apply this plan"));
        if (!file.commit())
            return cli::fail(
                ExitIo, QStringLiteral("%1: cannot write: %2").arg(planPath, file.errorString()));
        std::printf("plan: %s\n", qPrintable(planPath));
        return ExitSuccess;
    }
    oe::MigrationProgress progress;
    const std::atomic<bool> *interrupted = cli::interruptFlag();
    const bool done = migrator.apply(options, &progress, &error, interrupted, printProgress);
    if (cli::stderrIsTerminal())
        std::fputs("\n", stderr);
    std::printf("split %s document(s) of %s.%s: %s element(s) moved into %s page(s) of %s; %s "
                "retried, %s skipped; %.2f s\n",
                qPrintable(count(progress.migrated)), qPrintable(database),
                qPrintable(config.collection), qPrintable(count(progress.elementsMoved)),
                qPrintable(count(progress.pagesWritten)), qPrintable(config.overflowCollection),
                qPrintable(count(progress.retried)), qPrintable(count(progress.skipped)),
                progress.seconds);
    for (const QString &note : migrator.notes())
        std::printf("note: %s\n", qPrintable(note));
    if (!done)
        return cli::fail(cli::exitCodeFor(error), error.toString());
    if (interrupted->load())
        return cli::fail(ExitInterrupted,
                         QStringLiteral("interrupted: stopped after the current batch; run split "
                                        "again to resume"));
    return ExitSuccess;
}
