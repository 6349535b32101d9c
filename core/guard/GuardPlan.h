#pragma once

#include "guard/GuardPolicy.h"
#include "guard/ValidationSettings.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace oe {

// A guard about to be applied to one collection: the collMod that will run (the collection's
// existing validator kept under `$and`, never replaced; its level and action never lowered),
// what it replaces, and the documents that already break it (counted before anything is
// applied).
struct GuardPlan
{
    QString database;
    SplitConfig layout; // collection, field, keep and flag field
    GuardRequest request;
    GuardDecision decision;        // the level and action it sets, or why it is blocked
    QByteArray collMod;            // the command, BSON
    QString collModJson;           // the same, relaxed extended JSON, to show before applying
    QByteArray previousOptions;    // BSON {validator?, validationLevel?, validationAction?}
    QString previousValidatorJson; // the collection's own rule (empty when it has none)
    ValidationSettings current;    // what the server lists now (before applying)
    bool guardInPlace = false;     // a guard of ours is there already (this plan replaces it)
    bool validatorChanged = false; // with a guard in place: the validator is no longer the one
                                   // it wrote (someone changed it since); the change is kept
    std::int64_t conflicts = -1;   // documents breaking the guard now (-1: not counted)
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
    bool removed = false; // lift(): a guard of ours was there and is gone
    QString message;      // one line
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
