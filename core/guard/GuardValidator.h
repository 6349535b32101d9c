#pragma once

#include "guard/GuardRule.h"
#include "guard/ValidationSettings.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace oe {

// The guard's validator, as BSON: a `$jsonSchema` that holds the primary array at
// `maxItems: keep` and the flag to a boolean (nested `properties` for a dotted path), merged with
// the collection's own validator under `$and`; the collMod that sets it with the level and
// action GuardPolicy chose; and the guard's part taken out of a validator again.
class GuardValidator
{
public:
    static constexpr const char *kTitle = "outlier-explorer guard";
    // {$jsonSchema: {...}}
    static QByteArray schema(const SplitConfig &layout);
    // {$jsonSchema: {...}} holding every rule: a type rule's path reaches through sub-documents
    // and arrays of them alike (`properties` and `items`), as a query's dotted path does.
    static QByteArray schema(const std::vector<GuardRule> &rules);
    // The flag field of the guard in `validator` (the field its schema holds to a boolean), for
    // a record an older build wrote without it; empty when there is none.
    static QString flagOf(const QByteArray &validator);
    // {$and: [previous, guard]}, or the guard alone when `previousValidator` is empty.
    static QByteArray merged(const QByteArray &previousValidator, const QByteArray &guard);
    static QByteArray collMod(const QString &collection, const QByteArray &validator,
                              ValidationLevel level, ValidationAction action);
    // The collMod that sets `target`'s validator (an absent one becomes {}: collMod cannot
    // unset it), level and action (its words; an unlisted one is the server's default).
    static QByteArray restore(const QString &collection, const ValidationSettings &target);
    // `validator` with every guard of ours taken out of it (from `$and` lists, at any depth;
    // a list left with one rule becomes that rule): {} when nothing else is left.
    static QByteArray without(const QByteArray &validator);
    static bool containsGuard(const QByteArray &validator);
    // The first guard of ours in `validator` ({$jsonSchema: {title: kTitle, ...}}, itself or in
    // an `$and` list), byte for byte as the server keeps it; empty when there is none.
    static QByteArray guardOf(const QByteArray &validator);
    // The same rule: equal bytes, or both empty ({} and none alike).
    static bool sameRule(const QByteArray &a, const QByteArray &b);
    // {$nor: [guard]}: the documents that break it.
    static QByteArray violations(const QByteArray &guard);
    static QString toJson(const QByteArray &bson);
};

} // namespace oe
