#include "session/SessionKeeper.h"

#include "connection/ConnectionStore.h"
#include "connection/PasswordVault.h"
#include "models/SourceTreeModel.h"
#include "mongo/ConnectionUri.h"
#include "pages/AnalysisOptionsBar.h"

#include <QFileInfo>
#include <QSettings>

namespace oe {

namespace {
const QString kConnections = QStringLiteral("connections");
const QString kDumps = QStringLiteral("dumps");
const QString kOptions = QStringLiteral("options");

ConnectionSettings settingsOf(const RecentConnection &saved, const QString &password)
{
    ConnectionSettings settings;
    settings.uri = saved.uri;
    ConnectionUri parts;
    QString error;
    if (!password.isEmpty() && ConnectionUri::parse(saved.uri, &parts, &error)) {
        parts.password = password;
        settings.uri = parts.toUri();
    }
    settings.tlsCaFile = saved.tlsCaFile;
    settings.tlsCertificateKeyFile = saved.tlsCertificateKeyFile;
    settings.tlsAllowInvalidHostnames = saved.tlsAllowInvalidHostnames;
    return settings;
}

// The connection as it may be kept: the URI without its password.
std::optional<RecentConnection> keepable(const QString &name, const ConnectionSettings &settings)
{
    ConnectionUri parts;
    QString error;
    if (!ConnectionUri::parse(settings.uri, &parts, &error))
        return std::nullopt;
    RecentConnection c;
    c.name = name;
    c.uri = parts.toUriWithoutPassword();
    c.tlsCaFile = settings.tlsCaFile;
    c.tlsCertificateKeyFile = settings.tlsCertificateKeyFile;
    c.tlsAllowInvalidHostnames = settings.tlsAllowInvalidHostnames;
    const auto saved = ConnectionStore::findByName(name);
    c.passwordInKeychain = saved && saved->uri == c.uri && saved->passwordInKeychain;
    return c;
}

bool needsPassword(const QString &uri)
{
    ConnectionUri parts;
    QString error;
    return ConnectionUri::parse(uri, &parts, &error) && !parts.username.isEmpty() &&
           parts.password.isEmpty();
}
} // namespace

SessionKeeper::SessionKeeper(SourceTreeModel *sources, AnalysisOptionsBar *options, QObject *parent)
    : QObject(parent), m_sources(sources), m_options(options), m_vault(new PasswordVault(this))
{
    connect(m_vault, &PasswordVault::readFinished, this, &SessionKeeper::passwordRead);
}

void SessionKeeper::save() const
{
    QSettings settings;
    settings.beginGroup(sessionGroup());
    QList<RecentConnection> connections;
    for (const QString &name : m_sources->connectionNames())
        if (const auto c = keepable(name, m_sources->settingsOf(m_sources->findConnection(name))))
            connections << *c;
    settings.beginWriteArray(kConnections, int(connections.size()));
    for (int i = 0; i < connections.size(); ++i) {
        settings.setArrayIndex(i);
        ConnectionStore::write(settings, connections[i]);
    }
    settings.endArray();
    settings.setValue(kDumps, m_sources->dumpPaths());
    settings.setValue(kOptions, m_options->snapshot());
    settings.endGroup();
}

void SessionKeeper::restore()
{
    QSettings settings;
    settings.beginGroup(sessionGroup());
    m_options->restore(settings.value(kOptions).toMap());
    QList<RecentConnection> connections;
    const int size = settings.beginReadArray(kConnections);
    for (int i = 0; i < size; ++i) {
        settings.setArrayIndex(i);
        const RecentConnection c = ConnectionStore::read(settings);
        if (!c.name.isEmpty() && !c.uri.isEmpty())
            connections << c;
    }
    settings.endArray();
    const QStringList dumps = settings.value(kDumps).toStringList();
    settings.endGroup();

    QStringList gone;
    int opened = 0;
    for (const QString &path : dumps) {
        if (!QFileInfo(path).isFile()) {
            gone << path;
            continue;
        }
        emit dumpRequested(path);
        ++opened;
    }
    for (const RecentConnection &c : connections)
        open(c, QString(), true);
    if (connections.isEmpty() && dumps.isEmpty())
        return;
    QString summary = tr("Reopened %n connection(s)", nullptr, int(connections.size())) +
                      tr(" and %n dump(s) of the last session.", nullptr, opened);
    if (!gone.isEmpty())
        summary += QLatin1Char(' ') + tr("Gone since: %1.").arg(gone.join(QStringLiteral(", ")));
    emit restored(summary);
}

void SessionKeeper::connectUri(const QString &uri)
{
    ConnectionUri parts;
    QString error;
    if (!ConnectionUri::parse(uri, &parts, &error))
        return;
    const auto saved = ConnectionStore::findByUri(uri);
    if (!saved) {
        ConnectionSettings settings;
        settings.uri = uri;
        emit connectionRequested(parts.hosts, settings, false);
        return;
    }
    open(*saved, parts.password, false);
}

void SessionKeeper::open(const RecentConnection &saved, const QString &password, bool restoring)
{
    if (!password.isEmpty() || !needsPassword(saved.uri)) {
        emit connectionRequested(saved.name, settingsOf(saved, password), restoring);
        return;
    }
    if (!saved.passwordInKeychain) {
        askForPassword(saved);
        return;
    }
    m_pending.insert(saved.keychainKey(), Pending{saved, restoring});
    m_vault->read(saved.keychainKey());
}

void SessionKeeper::passwordRead(const QString &key, const QString &password, const QString &error)
{
    const auto it = m_pending.constFind(key);
    if (it == m_pending.cend())
        return; // another reader's
    const Pending pending = *it;
    m_pending.erase(it);
    if (!error.isEmpty() || password.isEmpty()) {
        emit keychainFailed(error);
        askForPassword(pending.saved);
        return;
    }
    emit connectionRequested(pending.saved.name, settingsOf(pending.saved, password),
                             pending.restoring);
}

void SessionKeeper::askForPassword(const RecentConnection &saved)
{
    const QModelIndex row = m_sources->addConnection(saved.name, settingsOf(saved, {}));
    const QString how =
        tr("Needs its password: File → Connect…, then pick %1 under Recent.").arg(saved.name);
    m_sources->setConnectionMessage(row, how, true);
    // On the connection's own row as well: the message under it is hidden while it is closed.
    m_sources->setConnectionStatus(row, tr("Needs its password"), how);
}

void SessionKeeper::renameSaved(const QString &from, const QString &to,
                                const ConnectionSettings &settings)
{
    const auto saved = ConnectionStore::findByName(from);
    const auto now = keepable(to, settings);
    if (!saved || !now || saved->uri != now->uri)
        return; // a connection never saved, or saved under that name for another server
    const QString oldKey = saved->keychainKey();
    if (!ConnectionStore::rename(from, to))
        return;
    if (saved->passwordInKeychain) {
        RecentConnection renamed = *saved;
        renamed.name = to;
        connect(
            m_vault, &PasswordVault::moved, this,
            [this](const QString &, const QString &, bool ok, const QString &error) {
                if (!ok)
                    emit keychainFailed(error);
            },
            Qt::SingleShotConnection);
        m_vault->move(oldKey, renamed.keychainKey());
    }
}

} // namespace oe
