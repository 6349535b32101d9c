#pragma once

#include "connection/RecentConnection.h"
#include "mongo/ConnectionSettings.h"

#include <QHash>
#include <QObject>
#include <QStringList>

namespace oe {

class AnalysisOptionsBar;
class PasswordVault;
class SourceTreeModel;

// The window's open sources between sessions: at close, the connections (never a password:
// the URI without it, the TLS files, and whether the keychain holds it), the dump files and the
// analysis options; at the next start, restore() asks for them again. It also opens a URI given
// on the command line under the saved connection's name (with its TLS files and keychain
// password), and keeps the saved list and the keychain in step when a connection is renamed.
class SessionKeeper : public QObject
{
    Q_OBJECT
public:
    SessionKeeper(SourceTreeModel *sources, AnalysisOptionsBar *options, QObject *parent);

    void save() const;
    // Emits the requests for what was open at the last close (dumps that are gone are named in
    // restored(), not opened).
    void restore();
    // `uri` under its saved connection's name when one was saved for it (compared without the
    // password), else under its hosts; a password not in `uri` comes from the keychain.
    void connectUri(const QString &uri);
    // A connection of the tree renamed: its saved entry (if any, for the same URI) and its
    // keychain password follow.
    void renameSaved(const QString &from, const QString &to, const ConnectionSettings &settings);

    static QString sessionGroup() { return QStringLiteral("session"); }

signals:
    // `restoring`: from the last session (a failure is shown in the tree, not in a dialog).
    void connectionRequested(const QString &name, const oe::ConnectionSettings &settings,
                             bool restoring);
    void dumpRequested(const QString &path);
    void restored(const QString &summary);
    void keychainFailed(const QString &error);

private:
    void open(const RecentConnection &saved, const QString &password, bool restoring);
    // A saved connection that needs a password the keychain does not hold: its row says so.
    void askForPassword(const RecentConnection &saved);
    void passwordRead(const QString &key, const QString &password, const QString &error);

    struct Pending
    {
        RecentConnection saved;
        bool restoring = false;
    };
    QHash<QString, Pending> m_pending; // keychain reads under way, by key

    SourceTreeModel *m_sources;
    AnalysisOptionsBar *m_options;
    PasswordVault *m_vault;
};

} // namespace oe
