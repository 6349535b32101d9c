#pragma once

#include "guard/GuardPolicy.h"
#include "guard/GuardRule.h"
#include "guard/ValidationSettings.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace oe {

// A document breaking the rule a plan adds: its _id (relaxed extended JSON) and the types it
// holds there that the rule does not allow.
struct GuardViolation
{
    QString id;
    QStringList types;
};

// A guard about to be applied to one collection: the collMod that will run (the collection's
// existing validator kept under `$and`, never replaced; its level and action never lowered),
// what it replaces, and the documents that already break it (counted before anything is
// applied).
struct GuardPlan
{
    QString database;
    SplitConfig layout; // the collection; for a split's rule also its field, keep and flag
    GuardRule rule;     // the rule this plan adds, replacing the guard's rule of the same target
    std::vector<GuardRule> rules; // every rule the guard will hold: the ones kept, then `rule`
    QStringList keptRules;        // the guard in place's other rules, kept beside it (described)
    GuardRequest request;
    GuardDecision decision;          // the level and action it sets, or why it is blocked
    QByteArray collMod;              // the command, BSON
    QString collModJson;             // the same, relaxed extended JSON, to show before applying
    QByteArray previousOptions;      // BSON {validator?, validationLevel?, validationAction?}
    QString previousValidatorJson;   // the collection's own rule (empty when it has none)
    ValidationSettings current;      // what the server lists now (before applying)
    bool guardInPlace = false;       // a guard of ours is there already (this plan replaces it)
    bool validatorChanged = false;   // with a guard in place: the validator is no longer the one
                                     // it wrote (someone changed it since); the change is kept
    std::int64_t conflicts = -1;     // documents breaking the guard now (-1: not counted)
    std::int64_t ruleConflicts = -1; // of them, those breaking `rule`
    std::vector<GuardViolation> violations; // the first of those, listed before applying
    QString violationsNote; // why they could not be listed (the count stands), else empty
    SourceError error;

    bool canApply() const
    {
        return !error.isError() && !collMod.isEmpty() && decision.block == GuardBlock::None;
    }
};

// What applying or removing a guard did.
struct GuardOutcome
{
    bool ok = false;
    bool removed = false;  // lift(): a guard of ours was there and is gone
    QStringList keptRules; // liftSplitRule(): the guard's other rules, still enforced
    QString message;       // one line
    QStringList notes;
    QString collModJson;
    ValidationSettings before; // as the server listed them, before and after
    ValidationSettings after;
    // remove() refused: the validator is no longer the one the guard wrote. The current one,
    // and the one removing the guard's own part would leave, to show before --force.
    bool changedSinceApplied = false;
    QString currentValidatorJson;
    QString remainingValidatorJson;
    SourceError error;
};

} // namespace oe
