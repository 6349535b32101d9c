#pragma once

#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace oe {

// What the guard does when a write breaks it: warn (the server logs the violation and takes
// the write) or error (the server refuses the write).
enum class GuardAction
{
    Warn,
    Error
};
QString guardActionName(GuardAction action); // "warn", "error"

// A guard about to be applied to one collection: the collMod that will run (the collection's
// existing validator kept under `$and`, never replaced), what it replaces, and the documents
// that already break it (counted before anything is applied).
struct GuardPlan
{
    QString database;
    SplitConfig layout; // collection, field, keep and flag field
    GuardAction action = GuardAction::Warn;
    QByteArray collMod;            // the command, BSON
    QString collModJson;           // the same, relaxed extended JSON, to show before applying
    QByteArray previousOptions;    // BSON {validator?, validationLevel?, validationAction?}
    QString previousValidatorJson; // empty when the collection had none
    bool guardInPlace = false;     // a guard of ours is there already (this plan replaces it)
    std::int64_t conflicts = -1;   // documents breaking the guard now (-1: not counted)
    SourceError error;
};

// What applying or removing a guard did.
struct GuardOutcome
{
    bool ok = false;
    QString message; // one line
    QString collModJson;
    SourceError error;
};

} // namespace oe
