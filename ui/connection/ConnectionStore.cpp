#include "connection/ConnectionStore.h"

#include "mongo/ConnectionUri.h"

#include <QSettings>

#include <algorithm>

namespace oe {

namespace {
const QString kGroup = QStringLiteral("recentConnections");

void save(const QList<RecentConnection> &list)
{
    QSettings settings;
    // beginWriteArray() leaves the entries past the new size in place: a shorter list would
    // keep its stale tail in the file (and a forgotten connection with it).
    settings.remove(kGroup);
    settings.beginWriteArray(kGroup, int(std::min<qsizetype>(list.size(), ConnectionStore::kMax)));
    for (int i = 0; i < list.size() && i < ConnectionStore::kMax; ++i) {
        settings.setArrayIndex(i);
        ConnectionStore::write(settings, list[i]);
    }
    settings.endArray();
}
} // namespace

QList<RecentConnection> ConnectionStore::load()
{
    QSettings settings;
    QList<RecentConnection> list;
    const int size = settings.beginReadArray(kGroup);
    for (int i = 0; i < size; ++i) {
        settings.setArrayIndex(i);
        const RecentConnection c = read(settings);
        if (!c.uri.isEmpty())
            list << c;
    }
    settings.endArray();
    return list;
}

void ConnectionStore::remember(RecentConnection connection)
{
    ConnectionUri parts;
    QString error;
    if (ConnectionUri::parse(connection.uri, &parts, &error))
        connection.uri = parts.toUriWithoutPassword();
    else
        return; // never store what cannot be checked for a password
    QList<RecentConnection> list = load();
    list.removeIf([&](const RecentConnection &c) { return c.name == connection.name; });
    list.prepend(connection);
    while (list.size() > kMax)
        list.removeLast();
    save(list);
}

void ConnectionStore::write(QSettings &settings, const RecentConnection &c)
{
    settings.setValue(QStringLiteral("name"), c.name);
    settings.setValue(QStringLiteral("uri"), c.uri);
    settings.setValue(QStringLiteral("tlsCaFile"), c.tlsCaFile);
    settings.setValue(QStringLiteral("tlsCertificateKeyFile"), c.tlsCertificateKeyFile);
    settings.setValue(QStringLiteral("tlsAllowInvalidHostnames"), c.tlsAllowInvalidHostnames);
    settings.setValue(QStringLiteral("passwordInKeychain"), c.passwordInKeychain);
}

RecentConnection ConnectionStore::read(const QSettings &settings)
{
    RecentConnection c;
    c.name = settings.value(QStringLiteral("name")).toString();
    c.uri = settings.value(QStringLiteral("uri")).toString();
    c.tlsCaFile = settings.value(QStringLiteral("tlsCaFile")).toString();
    c.tlsCertificateKeyFile = settings.value(QStringLiteral("tlsCertificateKeyFile")).toString();
    c.tlsAllowInvalidHostnames =
        settings.value(QStringLiteral("tlsAllowInvalidHostnames")).toBool();
    c.passwordInKeychain = settings.value(QStringLiteral("passwordInKeychain")).toBool();
    return c;
}

bool ConnectionStore::rename(const QString &from, const QString &to)
{
    QList<RecentConnection> list = load();
    const auto named = [&](const QString &name) {
        return std::find_if(list.begin(), list.end(),
                            [&](const RecentConnection &c) { return c.name == name; });
    };
    const auto it = named(from);
    if (it == list.end() || to.isEmpty() || (from != to && named(to) != list.end()))
        return false;
    it->name = to;
    save(list);
    return true;
}

std::optional<RecentConnection> ConnectionStore::findByUri(const QString &uri)
{
    ConnectionUri parts;
    QString error;
    if (!ConnectionUri::parse(uri, &parts, &error))
        return std::nullopt;
    const QString bare = parts.toUriWithoutPassword();
    for (const RecentConnection &c : load())
        if (c.uri == bare)
            return c;
    return std::nullopt;
}

std::optional<RecentConnection> ConnectionStore::findByName(const QString &name)
{
    for (const RecentConnection &c : load())
        if (c.name == name)
            return c;
    return std::nullopt;
}

void ConnectionStore::forget(const QString &name)
{
    QList<RecentConnection> list = load();
    list.removeIf([&](const RecentConnection &c) { return c.name == name; });
    save(list);
}

} // namespace oe
