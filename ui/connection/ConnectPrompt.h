#pragma once

#include "mongo/ConnectionSettings.h"

#include <QObject>

#include <optional>

class QWidget;

namespace oe {

class PasswordVault;

// File → Connect…: asks for a connection (ConnectionDialog), remembers it among the recent ones
// (never its password) and, when the user asks, stores the password in the system keychain.
// A keychain that refuses says so through keychainFailed; nothing is kept anywhere else.
class ConnectPrompt : public QObject
{
    Q_OBJECT
public:
    explicit ConnectPrompt(QObject *parent = nullptr);

    struct Answer
    {
        QString name;
        ConnectionSettings settings; // the URI with the password, for this session only
    };
    // Modal; nullopt when the user cancels.
    std::optional<Answer> ask(QWidget *parent);

signals:
    void keychainFailed(const QString &error);

private:
    PasswordVault *m_vault;
};

} // namespace oe
