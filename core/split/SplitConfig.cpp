#include "split/SplitConfig.h"

#include "mongo/LiveQuery.h"
#include "mongo/NamespaceNames.h"

namespace oe {

namespace {

QString fieldProblem(const QString &what, const QString &name, bool dotted)
{
    if (name.isEmpty())
        return QStringLiteral("%1 is empty").arg(what);
    if (name.startsWith(QLatin1Char('$')) || name.contains(QStringLiteral(".$")))
        return QStringLiteral("%1 '%2' may not start with '$'").arg(what, name);
    if (!dotted && name.contains(QLatin1Char('.')))
        return QStringLiteral("%1 '%2' must be a top-level name (no '.')").arg(what, name);
    const QStringList parts = name.split(QLatin1Char('.'));
    for (const QString &p : parts)
        if (p.isEmpty())
            return QStringLiteral("%1 '%2' has an empty path segment").arg(what, name);
    if (name.contains(QChar(0)))
        return QStringLiteral("%1 '%2' contains a NUL character").arg(what, name);
    return {};
}

// Two top-level fields that would land on the same place of the primary document.
bool overlaps(const QString &a, const QString &b)
{
    return a == b || a.startsWith(b + QLatin1Char('.')) || b.startsWith(a + QLatin1Char('.'));
}

} // namespace

SplitConfig SplitConfig::withDefaults() const
{
    SplitConfig c = *this;
    if (c.overflowCollection.isEmpty() && !c.collection.isEmpty())
        c.overflowCollection = c.collection + QStringLiteral("_overflow");
    if (c.itemsField.isEmpty())
        c.itemsField = c.pathSegments().last();
    if (c.countField.isEmpty() && !c.field.isEmpty())
        c.countField = c.pathSegments().join(QLatin1Char('_')) + QStringLiteral("_count");
    return c;
}

QStringList SplitConfig::problems() const
{
    QStringList out;
    const SplitConfig c = withDefaults();
    if (c.collection.isEmpty())
        out << QStringLiteral("no collection given");
    else if (QString p = NamespaceNames::collectionProblem(QStringLiteral("the collection name"),
                                                           c.collection);
             !p.isEmpty())
        out << p;
    if (QString p = fieldProblem(QStringLiteral("--field"), c.field, true); !p.isEmpty())
        out << p;
    else if (c.field == QLatin1String("_id") || c.field.startsWith(QStringLiteral("_id.")))
        out << QStringLiteral("--field may not be _id");
    if (c.keep < 0)
        out << QStringLiteral("--keep must be 0 or more, got %1").arg(c.keep);
    if (c.pageSize <= 0)
        out << QStringLiteral("--page-size must be at least 1, got %1").arg(c.pageSize);
    const std::pair<QString, QString> topLevel[] = {
        {QStringLiteral("--flag-field"), c.flagField},
        {QStringLiteral("--count-field"), c.countField},
        {QStringLiteral("--pages-field"), c.pagesField}};
    for (const auto &[what, name] : topLevel) {
        if (name.isEmpty() && what != QLatin1String("--flag-field"))
            continue;
        if (QString p = fieldProblem(what, name, false); !p.isEmpty())
            out << p;
        else if (name == QLatin1String("_id"))
            out << QStringLiteral("%1 may not be _id").arg(what);
        else if (overlaps(name, c.field))
            out << QStringLiteral("%1 '%2' collides with the array field '%3'")
                       .arg(what, name, c.field);
    }
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = i + 1; j < 3; ++j)
            if (!topLevel[i].second.isEmpty() && topLevel[i].second == topLevel[j].second)
                out << QStringLiteral("%1 and %2 are both '%3'")
                           .arg(topLevel[i].first, topLevel[j].first, topLevel[i].second);
    const std::pair<QString, QString> overflow[] = {
        {QStringLiteral("--link-field"), c.linkField},
        {QStringLiteral("--page-field"), c.pageField},
        {QStringLiteral("--items-field"), c.itemsField}};
    for (const auto &[what, name] : overflow) {
        if (QString p = fieldProblem(what, name, false); !p.isEmpty())
            out << p;
        else if (name == QLatin1String("_id"))
            out << QStringLiteral("%1 may not be _id").arg(what);
    }
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = i + 1; j < 3; ++j)
            if (overflow[i].second == overflow[j].second && !overflow[i].second.isEmpty())
                out << QStringLiteral("%1 and %2 are both '%3' in the overflow documents")
                           .arg(overflow[i].first, overflow[j].first, overflow[i].second);
    if (!c.collection.isEmpty()) {
        if (c.overflowCollection == c.collection)
            out << QStringLiteral("the overflow collection may not be the collection itself");
        if (c.overflowCollection == c.journalCollection())
            out << QStringLiteral("the overflow collection may not be the migration journal '%1'")
                       .arg(c.journalCollection());
    }
    if (QString p = NamespaceNames::collectionProblem(QStringLiteral("--overflow-collection"),
                                                      c.overflowCollection);
        !p.isEmpty() && !c.collection.isEmpty())
        out << p;
    if (QString p = LiveQuery::validateFilter(c.filter); !p.isEmpty())
        out << QStringLiteral("--filter: ") + p;
    return out;
}

} // namespace oe
