#pragma once

#include <QObject>

namespace oe {

// Passwords in the system keychain (Secret Service, KWallet, macOS Keychain, Windows
// Credential Store) through qtkeychain, asynchronously. There is no clear-text fallback:
// when no keychain is available the store fails and says so.
class PasswordVault : public QObject
{
    Q_OBJECT
public:
    static constexpr const char *kService = "outlier-explorer";
    using QObject::QObject;
    void store(const QString &key, const QString &password);
    void read(const QString &key);
    void remove(const QString &key);
    // The password under `from` goes under `to` (a renamed connection): read, stored, and the
    // old entry removed only once the new one is stored; moved() says how it went.
    void move(const QString &from, const QString &to);

signals:
    void stored(const QString &key, bool ok, const QString &error);
    void readFinished(const QString &key, const QString &password, const QString &error);
    void moved(const QString &from, const QString &to, bool ok, const QString &error);
};

} // namespace oe
