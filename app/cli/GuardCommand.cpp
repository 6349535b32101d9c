#include "GuardCommand.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "LayoutOptions.h"
#include "guard/GuardSession.h"

#include <QCommandLineParser>

#include <optional>

#include <cstdio>

namespace {

void print(const QString &line)
{
    std::printf("%s\n", qPrintable(line));
    std::fflush(stdout);
}

int failWith(const oe::SourceError &error)
{
    return cli::fail(cli::exitCodeFor(error), error.toString());
}

void printNotes(const QStringList &notes)
{
    for (const QString &note : notes)
        print(QStringLiteral("note: %1").arg(note));
}

int remove(const oe::ConnectionSettings &settings, const QString &database,
           const QString &collection, bool force)
{
    const oe::GuardOutcome out = oe::GuardSession::remove(settings, database, collection, force);
    if (out.changedSinceApplied) {
        print(QStringLiteral("validator now: %1").arg(out.currentValidatorJson));
        print(QStringLiteral("without the guard's part: %1").arg(out.remainingValidatorJson));
    }
    if (!out.collModJson.isEmpty())
        print(QStringLiteral("collMod: %1").arg(out.collModJson));
    if (!out.ok)
        return failWith(out.error);
    print(out.message);
    printNotes(out.notes);
    return ExitSuccess;
}

void addGuardOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("action"),
         QStringLiteral("warn (the server logs a write that breaks it; the default) or error "
                        "(the server refuses it). Never below the collection's own: warn on a "
                        "collection whose validator errors is refused."),
         QStringLiteral("ACTION"), QStringLiteral("warn")},
        {QStringLiteral("level"),
         QStringLiteral("moderate (the default: documents already over the guard are left alone "
                        "until they are split) or strict. A collection that validates strictly "
                        "stays strict; where that refuses updates to documents still over the "
                        "guard, say --level strict to accept it."),
         QStringLiteral("LEVEL"), QStringLiteral("moderate")},
        {QStringLiteral("type-of"),
         QStringLiteral("A type guard instead of the split's: hold the field at PATH (dot "
                        "notation, through sub-documents and arrays of them) to --types. Kept "
                        "beside the guard's other rules."),
         QStringLiteral("PATH")},
        {QStringLiteral("types"),
         QStringLiteral("With --type-of: the types it may hold, as $type aliases separated by "
                        "commas (string,null; number is double, int, long and decimal)."),
         QStringLiteral("TYPES")},
        {QStringLiteral("elements"),
         QStringLiteral("With --type-of: the types are those of the array's elements.")},
        {QStringLiteral("dry-run"),
         QStringLiteral("Show the collMod and the documents over the guard; change nothing.")},
        {QStringLiteral("remove"),
         QStringLiteral("Take the guard's own part out of the validator and put back the level "
                        "and action it replaced.")},
        {QStringLiteral("force"),
         QStringLiteral("With --remove: go on when the validator changed since the guard was "
                        "applied (only the guard's part is taken out; the rest is kept).")},
    });
}

std::optional<oe::GuardRequest> requestFrom(const QCommandLineParser &parser)
{
    const QString action = parser.value(QStringLiteral("action"));
    const QString level = parser.value(QStringLiteral("level"));
    if (action != QLatin1String("warn") && action != QLatin1String("error")) {
        cli::fail(ExitUsage, QStringLiteral("--action: '%1' is not warn or error").arg(action));
        return std::nullopt;
    }
    if (level != QLatin1String("moderate") && level != QLatin1String("strict")) {
        cli::fail(ExitUsage, QStringLiteral("--level: '%1' is not moderate or strict").arg(level));
        return std::nullopt;
    }
    oe::GuardRequest request;
    request.action =
        action == QLatin1String("error") ? oe::GuardAction::Error : oe::GuardAction::Warn;
    request.level = level == QLatin1String("strict") ? oe::ValidationLevel::Strict
                                                     : oe::ValidationLevel::Moderate;
    return request;
}

// A type rule's breakers, listed before anything is applied.
void printViolations(const oe::GuardPlan &plan)
{
    if (plan.rule.kind != oe::GuardRule::Kind::BsonType || plan.ruleConflicts <= 0)
        return;
    print(QStringLiteral("documents breaking %1: %2%3")
              .arg(plan.rule.describe())
              .arg(plan.ruleConflicts)
              .arg(plan.ruleConflicts > qint64(plan.violations.size()) && !plan.violations.empty()
                       ? QStringLiteral(" (the first %1)").arg(plan.violations.size())
                       : QString()));
    for (const oe::GuardViolation &v : plan.violations)
        print(QStringLiteral("  _id %1: %2").arg(v.id, v.types.join(QStringLiteral(", "))));
    if (!plan.violationsNote.isEmpty())
        print(QStringLiteral("note: not listed: %1").arg(plan.violationsNote));
}

void printPlan(const oe::GuardPlan &plan)
{
    print(QStringLiteral("existing validator: %1")
              .arg(plan.previousValidatorJson.isEmpty() ? QStringLiteral("none")
                                                        : plan.previousValidatorJson));
    print(QStringLiteral("now: %1").arg(plan.current.describe()));
    if (plan.guardInPlace)
        print(QStringLiteral("a guard is in place already: this one replaces it"));
    if (plan.validatorChanged)
        print(QStringLiteral("the validator changed since that guard was applied: the change "
                             "is kept"));
    for (const QString &kept : plan.keptRules)
        print(QStringLiteral("kept from the guard in place: %1").arg(kept));
    print(QStringLiteral("documents over the guard now: %1%2")
              .arg(plan.conflicts)
              .arg(plan.conflicts > 0 && plan.decision.level != oe::ValidationLevel::Strict
                       ? QStringLiteral(" (left as they are: validationLevel moderate; %1 "
                                        "them to fix them)")
                             .arg(plan.rule.kind == oe::GuardRule::Kind::MaxItems
                                      ? QStringLiteral("split")
                                      : QStringLiteral("change"))
                       : QString()));
    printViolations(plan);
    if (plan.decision.block != oe::GuardBlock::None)
        return;
    print(QStringLiteral("with the guard: validationLevel %1, validationAction %2")
              .arg(oe::validationLevelName(plan.decision.level),
                   oe::validationActionName(plan.decision.action)));
    printNotes(plan.decision.notes);
    print(QStringLiteral("collMod: %1").arg(plan.collModJson));
}

// The split's rule (--field, --keep) or a type rule (--type-of, --types); nullopt after a usage
// line.
std::optional<oe::GuardPlan> planFrom(const QCommandLineParser &parser,
                                      const oe::ConnectionSettings &settings,
                                      const QString &database, const QString &collection,
                                      const oe::GuardRequest &request)
{
    const bool typeRule = parser.isSet(QStringLiteral("type-of"));
    if (typeRule) {
        if (parser.isSet(QStringLiteral("field")) || parser.isSet(QStringLiteral("keep"))) {
            cli::fail(ExitUsage, QStringLiteral("--type-of is a guard of its own: leave out "
                                                "--field and --keep"));
            return std::nullopt;
        }
        if (!parser.isSet(QStringLiteral("types"))) {
            cli::fail(ExitUsage, QStringLiteral("--type-of needs --types (string,null, ...)"));
            return std::nullopt;
        }
        const QStringList types =
            parser.value(QStringLiteral("types")).split(QLatin1Char(','), Qt::SkipEmptyParts);
        const oe::GuardRule rule =
            oe::GuardRule::bsonType(parser.value(QStringLiteral("type-of")), types,
                                    parser.isSet(QStringLiteral("elements")));
        return oe::GuardSession::plan(settings, database, collection, rule, request);
    }
    if (!parser.isSet(QStringLiteral("field")) || !parser.isSet(QStringLiteral("keep"))) {
        cli::fail(ExitUsage, QStringLiteral("guard needs --field and --keep, or --type-of and "
                                            "--types"));
        return std::nullopt;
    }
    oe::SplitConfig layout;
    layout.collection = collection;
    if (!cli::layoutFrom(parser, &layout))
        return std::nullopt;
    return oe::GuardSession::plan(settings, database, layout, request);
}

int applyPlan(const QCommandLineParser &parser, const oe::ConnectionSettings &settings,
              const oe::GuardPlan &plan);

int applyGuard(const QCommandLineParser &parser, const oe::ConnectionSettings &settings,
               const QString &database, const QString &collection)
{
    const auto request = requestFrom(parser);
    if (!request)
        return ExitUsage;
    const auto plan = planFrom(parser, settings, database, collection, *request);
    if (!plan)
        return ExitUsage;
    return applyPlan(parser, settings, *plan);
}

int applyPlan(const QCommandLineParser &parser, const oe::ConnectionSettings &settings,
              const oe::GuardPlan &plan)
{
    if (plan.error.isError())
        return failWith(plan.error);
    printPlan(plan);
    if (plan.decision.block != oe::GuardBlock::None)
        return cli::fail(ExitUsage, plan.decision.blockMessage);
    if (parser.isSet(QStringLiteral("dry-run")))
        return ExitSuccess;
    const oe::GuardOutcome out = oe::GuardSession::apply(settings, plan);
    if (!out.ok)
        return failWith(out.error);
    print(out.message);
    return ExitSuccess;
}

} // namespace

int GuardCommand::run(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Keep a split collection's primary array at --keep elements with a $jsonSchema validator "
        "(maxItems), or a mixed-type field to its types (--type-of, --types: bsonType), merged "
        "with the collection's own under $and; its validationLevel and validationAction never "
        "below the collection's own."));
    parser.addHelpOption();
    cli::addConnectionOptions(parser);
    cli::addNamespaceOptions(parser);
    cli::addLayoutOptions(parser);
    addGuardOptions(parser);
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    cli::LiveCollection live;
    if (!cli::liveCollection(parser, QStringLiteral("guard"), &live))
        return ExitUsage;
    const oe::ConnectionSettings &settings = live.settings;
    const QString &database = live.database;
    const QString &collection = live.collection;
    if (parser.isSet(QStringLiteral("remove")))
        return remove(settings, database, collection, parser.isSet(QStringLiteral("force")));
    return applyGuard(parser, settings, database, collection);
}
