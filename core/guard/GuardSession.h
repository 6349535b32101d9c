#pragma once

#include "guard/GuardPlan.h"
#include "mongo/ConnectionSettings.h"

#include <QString>

namespace oe {

class MongoConnection;

// The guardrail validator of one collection, as the CLI's `guard` and the wizard's last page
// drive it. A guard holds rules (GuardRule: the split's maxItems, a mixed-type field's
// bsonType); a plan adds one, replacing the rule of the same target and keeping the others.
// plan() reads the collection's options and any guard already there, decides the level and
// action (GuardPolicy: never below the collection's own), builds the collMod and counts the
// documents that already break it (those breaking a type rule listed first, with their types).
// apply() records what it replaces (in the database's outlier_explorer_guards collection, once: a
// second apply keeps the first one's) and runs the collMod. remove() takes out only the guard's own
// part: where the validator is no longer the one the guard wrote it refuses unless forced, and what
// collMod cannot unset (an option the collection did not list before) it says. On a server without
// validators (FerretDB, and so DocumentDB or Cosmos DB) each says so in one line and changes
// nothing. Blocking: run it off the UI thread.
class GuardSession
{
public:
    static QString guardsCollection() { return QStringLiteral("outlier_explorer_guards"); }
    static constexpr int kListedViolations = 10; // documents breaking a type rule, listed

    static GuardPlan plan(const ConnectionSettings &settings, const QString &database,
                          const SplitConfig &layout, const GuardRequest &request);
    // Any rule (a type rule for a mixed-type field): kept beside the guard's other rules.
    static GuardPlan plan(const ConnectionSettings &settings, const QString &database,
                          const QString &collection, const GuardRule &rule,
                          const GuardRequest &request);
    static GuardOutcome apply(const ConnectionSettings &settings, const GuardPlan &plan);
    static GuardOutcome remove(const ConnectionSettings &settings, const QString &database,
                               const QString &collection, bool force = false);
    // remove() on an open connection, for a migration's rollback (whose restored arrays the
    // guard would refuse; forced: only the guard's part is taken out, whatever else changed).
    // ok with `removed` false when no guard of ours is there.
    static GuardOutcome lift(MongoConnection &connection, const QString &database,
                             const QString &collection, bool force);
    // A split's rollback: the guard's maxItems rule taken out and its other rules (a type rule)
    // kept in force, with the level and action as they are; lift() when it has no other rule.
    // `removed` when the split's rule was there.
    static GuardOutcome liftSplitRule(MongoConnection &connection, const QString &database,
                                      const QString &collection);

private:
    static GuardPlan planRule(const ConnectionSettings &settings, const QString &database,
                              const SplitConfig &layout, const GuardRule &rule,
                              const GuardRequest &request);
};

} // namespace oe
