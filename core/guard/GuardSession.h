#pragma once

#include "guard/GuardPlan.h"
#include "mongo/ConnectionSettings.h"

#include <QString>

namespace oe {

class MongoConnection;

// The guardrail validator of one collection, as the CLI's `guard` and the wizard's last page
// drive it: plan() reads the collection's options and any guard already there, builds the
// collMod and counts the documents that already break it; apply() keeps the options it replaces
// (in the database's outlier_explorer_guards collection, once: a second apply keeps the first
// one's) and runs the collMod; remove() puts them back exactly (the validator's bytes, level
// and action). On a server without validators (FerretDB, and so DocumentDB or Cosmos DB) each
// says so in one line and changes nothing. Blocking: run it off the UI thread.
class GuardSession
{
public:
    static QString guardsCollection() { return QStringLiteral("outlier_explorer_guards"); }

    static GuardPlan plan(const ConnectionSettings &settings, const QString &database,
                          const SplitConfig &layout, GuardAction action);
    static GuardOutcome apply(const ConnectionSettings &settings, const GuardPlan &plan);
    static GuardOutcome remove(const ConnectionSettings &settings, const QString &database,
                               const QString &collection);
    // remove() on an open connection, for a migration's rollback (whose restored arrays the
    // guard would refuse): true with `lifted` false when no guard of ours is there.
    static bool lift(MongoConnection &connection, const QString &database,
                     const QString &collection, bool *lifted, QString *collModJson,
                     SourceError *error);
};

} // namespace oe
