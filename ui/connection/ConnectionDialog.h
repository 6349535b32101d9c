#pragma once

#include "connection/RecentConnection.h"
#include "mongo/ConnectionSettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace oe {

class LatestJob;
class PasswordVault;

// Connect to a cluster: a connection string and a form (hosts, credentials, TLS files) that
// stay in sync, validation as you type, "Test connection" in the background, recent
// connections (never with passwords) and "remember password" in the system keychain.
// The URI field never shows a password: one typed there moves into the password field.
class ConnectionDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectionDialog(PasswordVault *vault, QWidget *parent = nullptr);

    QString connectionName() const;
    ConnectionSettings settings() const; // the URI with the password
    bool rememberPassword() const;
    QString password() const;
    RecentConnection recent() const; // what to remember (no password)
    QString problem() const;         // empty when the input is usable

    void setUri(const QString &uri);
    void setPassword(const QString &password);
    void testConnection();

    QLineEdit *uriEdit() const { return m_uri; }
    QLineEdit *hostsEdit() const { return m_hosts; }
    QLineEdit *userEdit() const { return m_user; }
    QLineEdit *passwordEdit() const { return m_password; }
    QCheckBox *tlsBox() const { return m_tls; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *connectButton() const { return m_connect; }
    QComboBox *recentBox() const { return m_recent; }
    QPushButton *removeRecentButton() const { return m_removeRecent; }

signals:
    void testFinished(bool ok, const QString &text);

private:
    void uriEdited();
    void formEdited();
    void validate();
    void applyRecent(int index);
    void removeRecent();

    PasswordVault *m_vault;
    QComboBox *m_recent;
    QLineEdit *m_name;
    QLineEdit *m_uri;
    QLineEdit *m_hosts;
    QCheckBox *m_srv;
    QLineEdit *m_user;
    QLineEdit *m_password;
    QLineEdit *m_authSource;
    QLineEdit *m_replicaSet;
    QCheckBox *m_tls;
    QLineEdit *m_caFile;
    QLineEdit *m_certFile;
    QCheckBox *m_allowInvalid;
    QCheckBox *m_remember;
    QLabel *m_status;
    QPushButton *m_test;
    QPushButton *m_connect;
    QPushButton *m_removeRecent;
    LatestJob *m_testJob;
    QString m_otherOptions;
    QString m_database;
    QString m_authMechanism;
    bool m_syncing = false;
    QList<RecentConnection> m_recents;
};

} // namespace oe
