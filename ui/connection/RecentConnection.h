#pragma once

#include <QString>

namespace oe {

// A connection the user made before, as remembered between sessions: never the password
// (that lives in the system keychain when the user asks for it, and nowhere otherwise).
struct RecentConnection
{
    QString name;
    QString uri; // without the password
    QString tlsCaFile;
    QString tlsCertificateKeyFile;
    bool tlsAllowInvalidHostnames = false;
    bool passwordInKeychain = false;

    QString keychainKey() const { return name + QLatin1Char('|') + uri; }
};

} // namespace oe
