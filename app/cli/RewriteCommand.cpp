#include "RewriteCommand.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "ExtractOptions.h"
#include "output/CsvWriter.h"
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
    parser.addOptions({
        {QStringLiteral("path"),
         QStringLiteral("The field, in dot notation (through sub-documents)."),
         QStringLiteral("PATH")},
        {QStringLiteral("keys-to-array"),
         QStringLiteral("Keys used as data to an array of {k, v} (the attribute pattern), in the "
                        "object's order.")},
        {QStringLiteral("key-name"), QStringLiteral("The key's field in each element (k)."),
         QStringLiteral("NAME"), QStringLiteral("k")},
        {QStringLiteral("value-name"), QStringLiteral("The value's field in each element (v)."),
         QStringLiteral("NAME"), QStringLiteral("v")},
        {QStringLiteral("convert-to"),
         QStringLiteral("Convert the field to double, int, long or string where that is exact; "
                        "what cannot be converted is listed and left as it is."),
         QStringLiteral("TYPE")},
        {QStringLiteral("extract"),
         QStringLiteral("Move the field (a big string, binary or sub-document) to a side "
                        "collection, {_id: the document's _id, <name>: the value}; the document "
                        "keeps an excerpt of the same type and a flag (the subset pattern).")},
        {QStringLiteral("attributes"),
         QStringLiteral("Move the top-level fields named by --fields (a sparse family) into one "
                        "array of {k, v} at --path (attrs), in each document's order, and index "
                        "it {attrs.k: 1, attrs.v: 1} (the attribute pattern).")},
        {QStringLiteral("fields"),
         QStringLiteral("--attributes: the fields to move, comma-separated (the fields column of "
                        "shape_outliers.csv's sparse_fields row, as a list)."),
         QStringLiteral("NAMES")},
        {QStringLiteral("gridfs"),
         QStringLiteral("Move the field's binaries of at least --min-bytes into files of a GridFS "
                        "bucket; the document keeps the file's _id (an ObjectId).")},
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

std::optional<oe::RewriteConfig> configFrom(const QCommandLineParser &parser,
                                            const QString &collection)
{
    const bool keys = parser.isSet(QStringLiteral("keys-to-array"));
    const bool convert = parser.isSet(QStringLiteral("convert-to"));
    const bool extract = parser.isSet(QStringLiteral("extract"));
    const bool gridfs = parser.isSet(QStringLiteral("gridfs"));
    const bool attributes = parser.isSet(QStringLiteral("attributes"));
    if (int(keys) + int(convert) + int(extract) + int(gridfs) + int(attributes) != 1) {
        cli::fail(ExitUsage, QStringLiteral("rewrite needs one of --keys-to-array, --convert-to "
                                            "TYPE, --extract, --gridfs and --attributes"));
        return std::nullopt;
    }
    oe::RewriteConfig config;
    config.collection = collection;
    config.path = parser.value(QStringLiteral("path"));
    config.kind = keys         ? oe::RewriteKind::KeysToArray
                  : convert    ? oe::RewriteKind::ConvertType
                  : extract    ? oe::RewriteKind::Extract
                  : attributes ? oe::RewriteKind::Attributes
                               : oe::RewriteKind::GridFs;
    if (attributes) {
        if (config.path.isEmpty())
            config.path = QStringLiteral("attrs");
        for (const QString &field :
             parser.value(QStringLiteral("fields")).split(QLatin1Char(','), Qt::SkipEmptyParts))
            config.fields << field.trimmed();
    }
    if ((extract || gridfs) && !cli::extractFrom(parser, &config))
        return std::nullopt;
    config.targetType = parser.value(QStringLiteral("convert-to"));
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

// What the scan reads: "an object", "not double or null", "there (without has_full_body)".
QString subject(const oe::RewriteConfig &config)
{
    switch (config.kind) {
    case oe::RewriteKind::KeysToArray:
        return QStringLiteral("an object");
    case oe::RewriteKind::ConvertType:
        return QStringLiteral("not %1 or null").arg(config.targetType);
    case oe::RewriteKind::GridFs:
        return config.gridfsStrings ? QStringLiteral("a binary or a string")
                                    : QStringLiteral("a binary");
    case oe::RewriteKind::Attributes:
        return QStringLiteral("any of the %1 fields").arg(config.fields.size());
    case oe::RewriteKind::Extract:
        break;
    }
    return QStringLiteral("there (without %1)").arg(config.flag());
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
    print(QStringLiteral("documents %1 %2: %3; to rewrite: %4; already so: %5; cannot be "
                         "rewritten: %6")
              .arg(config.kind == oe::RewriteKind::Attributes
                       ? QStringLiteral("holding")
                       : QStringLiteral("whose %1 is").arg(config.path),
                   subject(config))
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
    if (config.kind == oe::RewriteKind::GridFs)
        print(QStringLiteral("each value moves to a file of the GridFS bucket %1 (%1.files, "
                             "%1.chunks); its document keeps the file's _id")
                  .arg(config.bucket));
    if (config.kind == oe::RewriteKind::Extract)
        print(QStringLiteral("each value moves to %1 as {_id, %2}; its document keeps an excerpt "
                             "and %3: true")
                  .arg(config.side(), config.sideLeaf(), config.flag()));
    if (config.kind == oe::RewriteKind::Attributes)
        print(QStringLiteral("index to create once the fields are moved: %1 (one index serves "
                             "every attribute)")
                  .arg(config.indexSuggestion()));
    else if (const QString index = session.config().indexSuggestion(); !index.isEmpty())
        print(QStringLiteral("index suggestion: %1 (the keys as values: one index serves every "
                             "key)")
                  .arg(index));
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
    parser.setApplicationDescription(QStringLiteral(
        "Rewrite one field of a live collection in place, journaled, resumable and reversible: "
        "keys used as data to an array of {k, v}, a mixed-type field to one type, a big field "
        "extracted to a side collection or to GridFS, or sparse top-level fields moved into one "
        "array of {k, v}."));
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
