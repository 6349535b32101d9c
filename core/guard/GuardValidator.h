#pragma once

#include "guard/GuardPlan.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

namespace oe {

// The guard's validator, as BSON: a `$jsonSchema` that holds the primary array at
// `maxItems: keep` and the flag to a boolean (nested `properties` for a dotted path), merged with
// the collection's own validator under `$and`; and the collMod that sets it (validationLevel
// moderate: documents already over are left alone until they are fixed).
class GuardValidator
{
public:
    static constexpr const char *kTitle = "outlier-explorer guard";
    // {$jsonSchema: {...}}
    static QByteArray schema(const SplitConfig &layout);
    // {$and: [previous, guard]}, or the guard alone when `previousValidator` is empty.
    static QByteArray merged(const QByteArray &previousValidator, const QByteArray &guard);
    static QByteArray collMod(const QString &collection, const QByteArray &validator,
                              GuardAction action);
    // The collMod that puts `previousOptions` back ({validator?, validationLevel?,
    // validationAction?}: an absent validator becomes {}, the others the server's defaults).
    static QByteArray restore(const QString &collection, const QByteArray &previousOptions);
    // {$nor: [guard]}: the documents that break it.
    static QByteArray violations(const QByteArray &guard);
    static QString toJson(const QByteArray &bson);
};

} // namespace oe
