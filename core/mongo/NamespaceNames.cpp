#include "mongo/NamespaceNames.h"

namespace oe {

namespace {

QString forbiddenCharacter(const QString &name, const QString &forbidden)
{
    for (const QChar c : name) {
        if (c.isNull())
            return QStringLiteral("a NUL character");
        if (forbidden.contains(c))
            return QStringLiteral("'%1'").arg(c);
        if (c.unicode() < 0x20)
            return QStringLiteral("a control character (U+%1)")
                .arg(c.unicode(), 4, 16, QLatin1Char('0'));
    }
    return {};
}

} // namespace

QString NamespaceNames::collectionProblem(const QString &what, const QString &name)
{
    if (name.isEmpty())
        return QStringLiteral("%1 is empty").arg(what);
    // '/' and '\\' would make the dump file land in another directory; '$' is reserved by the
    // server; a leading, trailing or doubled '.' is refused by the server and spells ".." paths.
    if (const QString bad = forbiddenCharacter(name, QStringLiteral("/\\$")); !bad.isEmpty())
        return QStringLiteral("%1 '%2' may not contain %3").arg(what, name, bad);
    if (name.startsWith(QLatin1Char('.')) || name.endsWith(QLatin1Char('.')) ||
        name.contains(QStringLiteral("..")))
        return QStringLiteral("%1 '%2' may not start or end with '.' or contain '..'")
            .arg(what, name);
    if (name.startsWith(QStringLiteral("system.")))
        return QStringLiteral("%1 '%2' is a system collection").arg(what, name);
    if (name.toUtf8().size() > kMaxCollectionBytes)
        return QStringLiteral("%1 is %2 bytes long; at most %3 are allowed")
            .arg(what)
            .arg(name.toUtf8().size())
            .arg(kMaxCollectionBytes);
    return {};
}

QString NamespaceNames::databaseProblem(const QString &what, const QString &name)
{
    if (name.isEmpty())
        return QStringLiteral("%1 is empty").arg(what);
    if (const QString bad = forbiddenCharacter(name, QStringLiteral("/\\. \"$*<>:|?"));
        !bad.isEmpty())
        return QStringLiteral("%1 '%2' may not contain %3").arg(what, name, bad);
    if (name.toUtf8().size() > kMaxDatabaseBytes)
        return QStringLiteral("%1 is %2 bytes long; at most %3 are allowed")
            .arg(what)
            .arg(name.toUtf8().size())
            .arg(kMaxDatabaseBytes);
    return {};
}

} // namespace oe
