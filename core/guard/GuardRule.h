#pragma once

#include "split/SplitConfig.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace oe {

struct FieldProfile;
struct ShapeFlag;

// One rule of a collection's guard. A guard holds at most one MaxItems rule (the split's primary
// array at `keep`, its flag a boolean) and one BsonType rule per path (the types a field, or the
// elements of the array at the path, may hold: a mixed-type field kept to its own types). A new
// rule replaces the one with the same target and keeps the others.
struct GuardRule
{
    enum class Kind
    {
        MaxItems,
        BsonType
    };
    Kind kind = Kind::MaxItems;
    QString path;          // dot notation, through sub-documents and arrays of them
    std::int64_t keep = 0; // MaxItems
    QString flagField;     // MaxItems: may be empty
    QStringList types;     // BsonType: $type aliases ("string", "int", "number", ...)
    bool elements = false; // BsonType: the types are those of the array's elements

    static GuardRule maxItems(const SplitConfig &layout);
    static GuardRule bsonType(const QString &path, const QStringList &types, bool elements);
    // The type rule a mixed-type flag suggests: every type seen at the path (or among its
    // elements) but the flag's minority one. `field` is the flag's path in the profile.
    static GuardRule forMixedType(const ShapeFlag &flag, const FieldProfile &field);
    // Whether a flag has a type rule to offer: a mixed type on a path a guard can name.
    static bool offersTypeRule(const ShapeFlag &flag);

    // Whether `other` is the rule this one replaces.
    bool sameTarget(const GuardRule &other) const;
    // One line naming the problem (the path, the type), empty when the rule is usable.
    QString problem() const;
    // "comments at most 50 elements", "price is double or int",
    // "the elements of tags are string".
    QString describe() const;
    // "split", "fixed": what is done to a document breaking it.
    QString cure() const;

    bool operator==(const GuardRule &) const = default;
};

} // namespace oe
