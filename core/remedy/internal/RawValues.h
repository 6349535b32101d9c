#pragma once

// Internal to core: what the remedies share to read and make one raw value (its type byte,
// then its bytes as a document holds them) and to name their problems.

#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "remedy/ValueRewriter.h"

#include <QByteArray>
#include <QString>

#include <utility>

namespace oe::rawvalues {

QString typeName(int type);

// Calls `use` with an iterator on `raw`, held in a one-field document (nullptr: not a value).
template <typename Use> auto withIter(const QByteArray &raw, Use use)
{
    BsonDocument holder;
    bson_iter_t it;
    const bool ok =
        bsonraw::append(holder.get(), "v", 1, raw) && bson_iter_init_find(&it, holder.get(), "v");
    return use(ok ? &it : nullptr);
}

// The raw value of what `build` appends under "v".
template <typename Build> QByteArray rawOf(Build build)
{
    BsonDocument holder;
    build(holder.get());
    bson_iter_t it;
    return bson_iter_init_find(&it, holder.get(), "v") ? bsonraw::valueOf(&it) : QByteArray();
}

inline RewriteResult changed(QByteArray after)
{
    return {RewriteResult::Outcome::Changed, std::move(after), {}};
}

inline RewriteResult unchanged(const QString &why)
{
    return {RewriteResult::Outcome::Unchanged, {}, why};
}

inline RewriteResult cannot(const QString &why)
{
    return {RewriteResult::Outcome::Cannot, {}, why};
}

// One value's rewrite through an iterator: `rewrite(value)`, or Cannot for bytes that are no
// BSON value.
template <typename Rewrite> RewriteResult onValue(const QByteArray &raw, Rewrite rewrite)
{
    return withIter(raw, [&](const bson_iter_t *value) {
        return value ? rewrite(value) : cannot(QStringLiteral("not a BSON value"));
    });
}

// "<what> '<name>': it must be a plain name (...)", empty for a plain name.
QString plainNameProblem(const QString &what, const QString &name);
// The path with '.' as '_' (a default name made of it).
QString underscored(const QString &path);
// A filter {<path>: <condition>} where `condition` appends to the path's sub-document.
template <typename Condition> QByteArray filterOn(const QString &path, Condition condition)
{
    const QByteArray name = path.toUtf8();
    BsonDocument filter;
    bson_t inner;
    bson_append_document_begin(filter.get(), name.constData(), int(name.size()), &inner);
    condition(&inner);
    bson_append_document_end(filter.get(), &inner);
    return filter.bytes();
}
// {$not: {$type: "array"}} appended to a condition: a value, not an array holding it.
void appendNotArray(bson_t *condition);

} // namespace oe::rawvalues
