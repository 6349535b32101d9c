#include "RewriteCommand.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "ExtractOptions.h"
#include "output/CsvWriter.h"
#include "remedy/RemedyRegistry.h"
#include "remedy/RewriteSession.h"

#include <QCommandLineParser>

#include <cstdio>
#include <limits>
#include <optional>

namespace {

constexpr int kPrintedRows = 20;

void print(const QString &line)
{
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

int failWith(const oe::SourceError &error)
{
    return cli::fail(cli::exitCodeFor(error), error.toString());
}

void addRewriteOptions(QCommandLineParser &parser)
{
    // One option a remedy, as the registry lists them.
    for (const oe::Remedy *remedy : oe::RemedyRegistry::all())
        parser.addOption(remedy->cliValueName().isEmpty()
                             ? QCommandLineOption(remedy->cliOption(), remedy->cliHelp())
                             : QCommandLineOption(remedy->cliOption(), remedy->cliHelp(),
                                                  remedy->cliValueName()));
    parser.addOptions({
        {QStringLiteral("path"),
         QStringLiteral("The field, in dot notation (through sub-documents)."),
         QStringLiteral("PATH")},
        {QStringLiteral("key-name"), QStringLiteral("The key's field in each element (k)."),
         QStringLiteral("NAME"), QStringLiteral("k")},
        {QStringLiteral("value-name"), QStringLiteral("The value's field in each element (v)."),
         QStringLiteral("NAME"), QStringLiteral("v")},
        {QStringLiteral("fields"),
         QStringLiteral("--attributes: the fields to move, comma-separated (the fields column of "
                        "shape_outliers.csv's sparse_fields row, as a list)."),
         QStringLiteral("NAMES")},
        {QStringLiteral("preview-csv"),
         QStringLiteral("Write every change and every value it cannot rewrite to FILE."),
         QStringLiteral("FILE")},
        {QStringLiteral("yes"), QStringLiteral("Apply (or, with --rollback, roll back).")},
        {QStringLiteral("verify"), QStringLiteral("Check an applied rewrite against its journal.")},
        {QStringLiteral("rollback"),
         QStringLiteral("Put the values back (values the application rewrote since are kept).")},
        {QStringLiteral("forget"),
         QStringLiteral("After a rollback: remove the run from the journal, and its side "
                        "collection where it is empty.")},
        {QStringLiteral("batch"), QStringLiteral("Documents a round (200)."), QStringLiteral("N"),
         QStringLiteral("200")},
        {QStringLiteral("max-docs-per-sec"),
         QStringLiteral("Hold the rewrite (or rollback) to R documents a second (0: no limit)."),
         QStringLiteral("R"), QStringLiteral("0")},
    });
    cli::addExtractOptions(parser);
}

// "--keys-to-array, --convert-to TYPE, ... and --rename-to NAME"
QString remedyOptions()
{
    QStringList options;
    for (const oe::Remedy *remedy : oe::RemedyRegistry::all())
        options << QStringLiteral("--%1%2").arg(remedy->cliOption(),
                                                remedy->cliValueName().isEmpty()
                                                    ? QString()
                                                    : QLatin1Char(' ') + remedy->cliValueName());
    const QString last = options.takeLast();
    return options.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last;
}

std::optional<oe::RewriteConfig> configFrom(const QCommandLineParser &parser,
                                            const QString &collection)
{
    std::vector<const oe::Remedy *> chosen;
    for (const oe::Remedy *remedy : oe::RemedyRegistry::all())
        if (parser.isSet(remedy->cliOption()))
            chosen.push_back(remedy);
    if (chosen.size() != 1) {
        cli::fail(ExitUsage, QStringLiteral("rewrite needs one of %1").arg(remedyOptions()));
        return std::nullopt;
    }
    const oe::Remedy &remedy = *chosen.front();
    const oe::Remedy::Options options = remedy.options();
    oe::RewriteConfig config;
    config.collection = collection;
    config.path = parser.value(QStringLiteral("path"));
    config.kind = remedy.kind();
    remedy.fillDefaults(&config);
    if (options.testFlag(oe::Remedy::Option::Fields))
        for (const QString &field :
             parser.value(QStringLiteral("fields")).split(QLatin1Char(','), Qt::SkipEmptyParts))
            config.fields << field.trimmed();
    if (options.testAnyFlags(oe::Remedy::Option::MinBytes | oe::Remedy::Option::SideCollection |
                             oe::Remedy::Option::Bucket) &&
        !cli::extractFrom(parser, &config))
        return std::nullopt;
    if (!remedy.cliValueName().isEmpty())
        remedy.takeCliValue(&config, parser.value(remedy.cliOption()));
    config.keyName = parser.value(QStringLiteral("key-name"));
    config.valueName = parser.value(QStringLiteral("value-name"));
    if (const QString problem = config.problem(); !problem.isEmpty()) {
        cli::fail(ExitUsage, problem);
        return std::nullopt;
    }
    return config;
}

QString rowLine(const oe::RewriteRow &row)
{
    switch (row.kind) {
    case oe::RewriteRow::Kind::Change:
        return QStringLiteral("  _id %1: %2 -> %3").arg(row.id, row.before, row.after);
    case oe::RewriteRow::Kind::ChangedSince:
    case oe::RewriteRow::Kind::Deleted:
    case oe::RewriteRow::Kind::Mismatch:
        return QStringLiteral("  _id %1: %2").arg(row.id, row.why);
    case oe::RewriteRow::Kind::Cannot:
        break;
    }
    return QStringLiteral("  _id %1: cannot: %2").arg(row.id, row.why);
}

void printRows(const std::vector<oe::RewriteRow> &rows, oe::RewriteRow::Kind kind,
               const QString &title, std::uint64_t total)
{
    if (total == 0)
        return;
    print(QStringLiteral("%1: %2%3")
              .arg(title)
              .arg(total)
              .arg(total > kPrintedRows ? QStringLiteral(" (the first %1)").arg(kPrintedRows)
                                        : QString()));
    int printed = 0;
    for (const oe::RewriteRow &row : rows) {
        if (row.kind != kind || printed == kPrintedRows)
            continue;
        print(rowLine(row));
        ++printed;
    }
}

void printNotes(const QStringList &notes)
{
    for (const QString &note : notes)
        print(QStringLiteral("note: %1").arg(note));
}

QString csvKind(oe::RewriteRow::Kind kind)
{
    return kind == oe::RewriteRow::Kind::Change ? QStringLiteral("change")
                                                : QStringLiteral("cannot");
}

int preview(oe::RewriteSession &session, const QString &csvPath, bool applying)
{
    oe::CsvWriter csv({QStringLiteral("_id"), QStringLiteral("outcome"), QStringLiteral("before"),
                       QStringLiteral("after"), QStringLiteral("why")});
    const oe::RewriteStep step = session.preview([&](const oe::RewriteRow &row) {
        if (!csvPath.isEmpty())
            csv.addRow({row.id, csvKind(row.kind), row.before, row.after, row.why});
    });
    if (!step.ok)
        return failWith(step.error);
    const oe::RewritePreview &p = step.preview;
    printNotes(p.notes);
    const oe::RewriteConfig &config = session.config();
    const oe::Remedy &remedy = oe::RemedyRegistry::of(config.kind);
    print(QStringLiteral("documents %1 %2: %3; to rewrite: %4; already so: %5; cannot be "
                         "rewritten: %6")
              .arg(remedy.unit() == oe::Remedy::Unit::Fields
                       ? QStringLiteral("holding")
                       : QStringLiteral("whose %1 is").arg(config.path),
                   remedy.subject(config))
              .arg(p.examined)
              .arg(p.changes)
              .arg(p.unchanged)
              .arg(p.cannot));
    printRows(p.rows, oe::RewriteRow::Kind::Change, QStringLiteral("changes"), p.changes);
    printRows(p.rows, oe::RewriteRow::Kind::Cannot,
              QStringLiteral("left as they are (no exact rewrite)"), p.cannot);
    if (p.changes > 0)
        print(QStringLiteral("the values rewritten: %1 bytes now, %2 bytes after (%3 bytes %4 "
                             "the documents)")
                  .arg(p.bytesBefore)
                  .arg(p.bytesAfter)
                  .arg(p.bytesBefore > p.bytesAfter ? p.bytesBefore - p.bytesAfter
                                                    : p.bytesAfter - p.bytesBefore)
                  .arg(p.bytesBefore >= p.bytesAfter ? QStringLiteral("out of")
                                                     : QStringLiteral("into")));
    if (p.sizesBefore.count() > 0)
        print(QStringLiteral("the %1 documents' sizes: largest %2 bytes now, %3 bytes after; in "
                             "all %4 bytes now, %5 bytes after")
                  .arg(p.sizesBefore.count())
                  .arg(p.sizesBefore.max())
                  .arg(p.sizesAfter.max())
                  .arg(p.sizesBefore.sum())
                  .arg(p.sizesAfter.sum()));
    if (const QString consequence = remedy.consequence(config); !consequence.isEmpty())
        print(consequence);
    if (!csvPath.isEmpty() && cli::writeFile(csvPath, csv.bytes()) != ExitSuccess)
        return ExitIo;
    if (!applying)
        print(QStringLiteral("nothing written: add --yes to apply"));
    return ExitSuccess;
}

void printProgress(const oe::RewriteProgress &p, bool rollingBack)
{
    if (rollingBack)
        print(QStringLiteral("restored: %1; the application's value kept: %2; deleted "
                             "meanwhile: %3; %4 s")
                  .arg(p.rewritten)
                  .arg(p.changedSince)
                  .arg(p.deleted)
                  .arg(p.seconds, 0, 'f', 2));
    else
        print(QStringLiteral("rewritten: %1; already so: %2; cannot be rewritten: %3 (left as "
                             "they are); the application's writes won: %4; deleted meanwhile: "
                             "%5; resumed: %6; %7 s")
                  .arg(p.rewritten)
                  .arg(p.unchanged)
                  .arg(p.cannot)
                  .arg(p.changedSince)
                  .arg(p.deleted)
                  .arg(p.resumed)
                  .arg(p.seconds, 0, 'f', 2));
    printRows(p.rows, oe::RewriteRow::Kind::Cannot, QStringLiteral("left as they are"), p.cannot);
    printRows(p.rows, oe::RewriteRow::Kind::ChangedSince,
              QStringLiteral("the application's value kept"), p.changedSince);
    printRows(p.rows, oe::RewriteRow::Kind::Deleted, QStringLiteral("deleted meanwhile"),
              p.deleted);
    printNotes(p.notes);
}

int finish(const oe::RewriteStep &step, bool rollingBack, const QString &again)
{
    if (!step.ok && !step.error.isError()) // cancelled while waiting for a killed run
        return cli::fail(ExitInterrupted, QStringLiteral("interrupted before anything was "
                                                         "written; %1")
                                              .arg(again));
    if (!step.ok)
        return failWith(step.error);
    printProgress(step.progress, rollingBack);
    if (step.progress.stopped)
        return cli::fail(ExitInterrupted,
                         QStringLiteral("interrupted: stopped after the current batch; %1 to "
                                        "go on")
                             .arg(again));
    return ExitSuccess;
}

int verify(oe::RewriteSession &session)
{
    const oe::RewriteStep step = session.verify();
    if (!step.ok)
        return failWith(step.error);
    const oe::RewriteVerify &v = step.verify;
    print(QStringLiteral("verify %1: %2 entries (the run recorded %3); holding the rewrite: %4; "
                         "rewritten by the application since: %5; deleted since: %6; "
                         "mismatched: %7")
              .arg(session.config().describe())
              .arg(v.entries)
              .arg(v.recorded)
              .arg(v.matching)
              .arg(v.changedSince)
              .arg(v.deleted)
              .arg(v.mismatched));
    printRows(v.rows, oe::RewriteRow::Kind::Mismatch, QStringLiteral("mismatched"), v.mismatched);
    printRows(v.rows, oe::RewriteRow::Kind::ChangedSince,
              QStringLiteral("rewritten by the application since"), v.changedSince);
    if (!v.ok())
        return cli::fail(ExitInvalidData,
                         v.entries != v.recorded
                             ? QStringLiteral("the journal holds %1 entries of the %2 the run "
                                              "wrote")
                                   .arg(v.entries)
                                   .arg(v.recorded)
                             : QStringLiteral("%1 entries are not the rewrite of their value")
                                   .arg(v.mismatched));
    print(QStringLiteral("verified"));
    return ExitSuccess;
}

} // namespace

int RewriteCommand::run(const QStringList &arguments)
{
    QCommandLineParser parser;
    QStringList cures; // the registry's remedies, in its order
    for (const oe::Remedy *remedy : oe::RemedyRegistry::all()) {
        QString cure = remedy->cureName();
        cures << cure.replace(0, 1, cure.at(0).toLower()); // "Keys to ..." -> "keys to ..."
    }
    parser.setApplicationDescription(
        QStringLiteral("Rewrite one field of a live collection in place, journaled, resumable "
                       "and reversible, by one remedy: %1.")
            .arg(cures.join(QStringLiteral("; "))));
    parser.addHelpOption();
    cli::addConnectionOptions(parser);
    cli::addNamespaceOptions(parser);
    addRewriteOptions(parser);
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    cli::LiveCollection live;
    if (!cli::liveCollection(parser, QStringLiteral("rewrite"), &live))
        return ExitUsage;
    const QString &database = live.database;
    const QString &collection = live.collection;
    const auto config = configFrom(parser, collection);
    if (!config)
        return ExitUsage;
    bool batchOk = false;
    oe::RewriteOptions options;
    options.batch = parser.value(QStringLiteral("batch")).toULongLong(&batchOk);
    if (!batchOk || options.batch == 0)
        return cli::fail(ExitUsage, QStringLiteral("--batch: '%1' is not a positive number")
                                        .arg(parser.value(QStringLiteral("batch"))));
    bool paceOk = false;
    options.maxDocsPerSecond = parser.value(QStringLiteral("max-docs-per-sec")).toDouble(&paceOk);
    if (!paceOk || options.maxDocsPerSecond < 0)
        return cli::fail(ExitUsage, QStringLiteral("--max-docs-per-sec: '%1' is not a rate")
                                        .arg(parser.value(QStringLiteral("max-docs-per-sec"))));
    oe::RewriteSession session(live.settings, database, *config);
    print(QStringLiteral("rewrite %1.%2: %3").arg(database, collection, config->describe()));
    const bool yes = parser.isSet(QStringLiteral("yes"));
    if (parser.isSet(QStringLiteral("verify")))
        return verify(session);
    if (parser.isSet(QStringLiteral("forget"))) {
        const oe::RewriteStep step = session.forget();
        if (!step.ok)
            return failWith(step.error);
        printNotes(step.progress.notes);
        return ExitSuccess;
    }
    if (parser.isSet(QStringLiteral("rollback"))) {
        if (!yes)
            return cli::fail(ExitUsage,
                             QStringLiteral("rollback writes to the cluster: add --yes"));
        return finish(session.rollback(options, cli::interruptFlag()), true,
                      QStringLiteral("run the rollback again"));
    }
    if (const int exit = preview(session, parser.value(QStringLiteral("preview-csv")), yes);
        exit != ExitSuccess || !yes)
        return exit;
    return finish(session.apply(options, cli::interruptFlag()), false,
                  QStringLiteral("run it again"));
}
