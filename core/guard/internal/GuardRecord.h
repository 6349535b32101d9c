#pragma once

// Internal to core: a guard of ours as its record in <db>.outlier_explorer_guards keeps it
// (one record a collection, keyed by the collection's name).

#include "guard/GuardPolicy.h"
#include "guard/GuardRule.h"
#include "guard/ValidationSettings.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace oe {

class CollectionOps;

// Version 3 lists the guard's rules; version 2 (one split rule: `field` and `keep`) adds the
// level and action it set to version 1's record of what it replaced.
struct GuardRecord
{
    static constexpr int kVersion = 3;

    bool present = false;
    int version = 0;
    QByteArray previousOptions; // {validator?, validationLevel?, validationAction?} it replaced
    ValidationSettings previous;
    QString appliedLevel; // empty in a version 1 record
    QString appliedAction;
    // The rules it holds. From a version 1 or 2 record: the split's rule, its flag read from the
    // guard in the collection's validator (`validator` given to read()).
    std::vector<GuardRule> rules;

    static GuardRecord read(CollectionOps &guards, const QString &collection,
                            const QByteArray &validator, SourceError *error);
    // The first apply: what it replaces, what it sets, its rules.
    static bool write(CollectionOps &guards, const QString &collection,
                      const QByteArray &previousOptions, const GuardDecision &decision,
                      const std::vector<GuardRule> &rules, SourceError *error);
    // A guard replaced by a newer one keeps its record's `previous`; the rest follows.
    static bool update(CollectionOps &guards, const QString &collection,
                       const GuardDecision &decision, const std::vector<GuardRule> &rules,
                       SourceError *error);
    static bool drop(CollectionOps &guards, const QString &collection, SourceError *error);
};

} // namespace oe
