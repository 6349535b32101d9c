#include "connection/ConnectPrompt.h"

#include "connection/ConnectionDialog.h"
#include "connection/ConnectionStore.h"
#include "connection/PasswordVault.h"

namespace oe {

ConnectPrompt::ConnectPrompt(QObject *parent) : QObject(parent), m_vault(new PasswordVault(this)) {}

std::optional<ConnectPrompt::Answer> ConnectPrompt::ask(QWidget *parent)
{
    ConnectionDialog dialog(m_vault, parent);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    const RecentConnection recent = dialog.recent();
    if (dialog.rememberPassword()) {
        connect(
            m_vault, &PasswordVault::stored, this,
            [this](const QString &, bool ok, const QString &error) {
                if (!ok)
                    emit keychainFailed(error);
            },
            Qt::SingleShotConnection);
        m_vault->store(recent.keychainKey(), dialog.password());
    }
    ConnectionStore::remember(recent);
    return Answer{dialog.connectionName(), dialog.settings()};
}

} // namespace oe
