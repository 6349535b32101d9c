#include "GuardCommand.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "LayoutOptions.h"
#include "guard/GuardSession.h"

#include <QCommandLineParser>

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

int remove(const oe::ConnectionSettings &settings, const QString &database,
           const QString &collection)
{
    const oe::GuardOutcome out = oe::GuardSession::remove(settings, database, collection);
    if (!out.collModJson.isEmpty())
        print(QStringLiteral("collMod: %1").arg(out.collModJson));
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
        "(maxItems), merged with the collection's own under $and; validationLevel moderate."));
    parser.addHelpOption();
    cli::addConnectionOptions(parser);
    cli::addNamespaceOptions(parser);
    cli::addLayoutOptions(parser);
    parser.addOptions({
        {QStringLiteral("action"),
         QStringLiteral("warn (the server logs a write that breaks it; the default) or error "
                        "(the server refuses it)."),
         QStringLiteral("ACTION"), QStringLiteral("warn")},
        {QStringLiteral("dry-run"),
         QStringLiteral("Show the collMod and the documents over the guard; change nothing.")},
        {QStringLiteral("remove"),
         QStringLiteral("Take the guard off: the validator, level and action it replaced come "
                        "back exactly.")},
    });
    if (const auto exit = cli::parseOrHelp(parser, arguments))
        return *exit;
    if (!parser.isSet(QStringLiteral("uri")))
        return cli::fail(ExitUsage, QStringLiteral("guard needs --uri URI"));
    oe::ConnectionSettings settings;
    if (!cli::connectionSettings(parser, &settings))
        return ExitUsage;
    const QString database = cli::databaseOf(parser, settings);
    const QString collection = parser.value(QStringLiteral("collection"));
    if (database.isEmpty() || collection.isEmpty())
        return cli::fail(ExitUsage, QStringLiteral("guard needs --db and --collection"));
    if (!cli::namespaceNames(database, collection))
        return ExitUsage;
    if (parser.isSet(QStringLiteral("remove")))
        return remove(settings, database, collection);

    const QString actionName = parser.value(QStringLiteral("action"));
    if (actionName != QLatin1String("warn") && actionName != QLatin1String("error"))
        return cli::fail(ExitUsage,
                         QStringLiteral("--action: '%1' is not warn or error").arg(actionName));
    if (!parser.isSet(QStringLiteral("field")) || !parser.isSet(QStringLiteral("keep")))
        return cli::fail(ExitUsage, QStringLiteral("guard needs --field and --keep"));
    oe::SplitConfig layout;
    layout.collection = collection;
    if (!cli::layoutFrom(parser, &layout))
        return ExitUsage;
    const auto action =
        actionName == QLatin1String("error") ? oe::GuardAction::Error : oe::GuardAction::Warn;
    const oe::GuardPlan plan = oe::GuardSession::plan(settings, database, layout, action);
    if (plan.error.isError())
        return failWith(plan.error);
    print(QStringLiteral("existing validator: %1")
              .arg(plan.previousValidatorJson.isEmpty() ? QStringLiteral("none")
                                                        : plan.previousValidatorJson));
    if (plan.guardInPlace)
        print(QStringLiteral("a guard is in place already: this one replaces it"));
    print(QStringLiteral("collMod: %1").arg(plan.collModJson));
    print(QStringLiteral("documents over the guard now: %1%2")
              .arg(plan.conflicts)
              .arg(plan.conflicts > 0 ? QStringLiteral(" (left as they are: validationLevel "
                                                       "moderate; split them to fix them)")
                                      : QString()));
    if (parser.isSet(QStringLiteral("dry-run")))
        return ExitSuccess;
    const oe::GuardOutcome out = oe::GuardSession::apply(settings, plan);
    if (!out.ok)
        return failWith(out.error);
    print(out.message);
    return ExitSuccess;
}
