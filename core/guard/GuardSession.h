#pragma once

#include "guard/GuardPlan.h"
#include "mongo/ConnectionSettings.h"

#include <QString>

namespace oe {

class MongoConnection;

// The guardrail validator of one collection, as the CLI's `guard` and the wizard's last page
// drive it. plan() reads the collection's options and any guard already there, decides the
// level and action (GuardPolicy: never below the collection's own), builds the collMod and
// counts the documents that already break it. apply() records what it replaces (in the
// database's outlier_explorer_guards collection, once: a second apply keeps the first one's)
// and runs the collMod. remove() takes out only the guard's own part: where the validator is
// no longer the one the guard wrote it refuses unless forced, and what collMod cannot unset
// (an option the collection did not list before) it says. On a server without validators
// (FerretDB, and so DocumentDB or Cosmos DB) each says so in one line and changes nothing.
// Blocking: run it off the UI thread.
class GuardSession
{
public:
    static QString guardsCollection() { return QStringLiteral("outlier_explorer_guards"); }
    static constexpr int kRecordVersion = 2; // 1 (no version field): no `applied`

    static GuardPlan plan(const ConnectionSettings &settings, const QString &database,
                          const SplitConfig &layout, const GuardRequest &request);
    static GuardOutcome apply(const ConnectionSettings &settings, const GuardPlan &plan);
    static GuardOutcome remove(const ConnectionSettings &settings, const QString &database,
                               const QString &collection, bool force = false);
    // remove() on an open connection, for a migration's rollback (whose restored arrays the
    // guard would refuse; forced: only the guard's part is taken out, whatever else changed).
    // ok with `removed` false when no guard of ours is there.
    static GuardOutcome lift(MongoConnection &connection, const QString &database,
                             const QString &collection, bool force);
};

} // namespace oe
