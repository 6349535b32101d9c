#include "connection/ConnectionDialog.h"

#include "connection/ConnectionStore.h"
#include "connection/PasswordVault.h"
#include "jobs/LatestJob.h"
#include "mongo/ConnectionUri.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerProbe.h"
#include "mongo/UriRedactor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace oe {

namespace {

QWidget *withBrowse(QLineEdit *edit, const QString &title, QWidget *parent)
{
    auto *row = new QWidget(parent);
    auto *layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto *browse = new QPushButton(QObject::tr("Browse…"), row);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, edit, [edit, title, row] {
        const QString file = QFileDialog::getOpenFileName(
            row, title, edit->text(), QObject::tr("PEM files (*.pem *.crt);;All files (*)"));
        if (!file.isEmpty())
            edit->setText(file);
    });
    return row;
}

// `text` without the ":password" of its user info, cut out where it was typed so the rest of
// the string (and the cursor) stays as the user has it: rebuilding the whole URI while they
// type would add ports and slashes under the cursor. Empty when there is no such part.
QString withoutTypedPassword(const QString &text, int *cursor)
{
    const qsizetype scheme = text.indexOf(QLatin1String("://"));
    if (scheme < 0)
        return {};
    const qsizetype start = scheme + 3;
    qsizetype end = text.indexOf(QLatin1Char('/'), start);
    if (end < 0)
        end = text.size();
    if (const qsizetype query = text.indexOf(QLatin1Char('?'), start); query >= 0 && query < end)
        end = query;
    const qsizetype at = text.indexOf(QLatin1Char('@'), start);
    if (at < 0 || at >= end)
        return {};
    const qsizetype colon = text.indexOf(QLatin1Char(':'), start);
    if (colon < 0 || colon >= at)
        return {};
    if (*cursor > colon)
        *cursor -= int(std::min<qsizetype>(*cursor, at) - colon);
    return text.left(colon) + text.mid(at);
}

struct TestOutcome
{
    bool ok = false;
    QString text;
};

} // namespace

ConnectionDialog::ConnectionDialog(PasswordVault *vault, QWidget *parent)
    : QDialog(parent), m_vault(vault), m_recent(new QComboBox(this)), m_name(new QLineEdit(this)),
      m_uri(new QLineEdit(this)), m_hosts(new QLineEdit(this)),
      m_srv(new QCheckBox(tr("DNS seed list (mongodb+srv)"), this)), m_user(new QLineEdit(this)),
      m_password(new QLineEdit(this)), m_authSource(new QLineEdit(this)),
      m_replicaSet(new QLineEdit(this)), m_tls(new QCheckBox(tr("Use TLS"), this)),
      m_caFile(new QLineEdit(this)), m_certFile(new QLineEdit(this)),
      m_allowInvalid(new QCheckBox(tr("Allow invalid host names"), this)),
      m_remember(new QCheckBox(tr("Remember password in the system keychain"), this)),
      m_status(new QLabel(this)), m_test(new QPushButton(tr("&Test connection"), this)),
      m_connect(new QPushButton(tr("&Connect"), this)),
      m_removeRecent(new QPushButton(tr("Re&move"), this)), m_testJob(new LatestJob(this))
{
    setWindowTitle(tr("Connect to MongoDB"));
    resize(620, 560);
    m_uri->setPlaceholderText(QStringLiteral("mongodb://host:27017/?replicaSet=rs0"));
    m_uri->setToolTip(tr("Any mongodb:// or mongodb+srv:// connection string. A password typed "
                         "here moves to the password field and is never shown."));
    m_hosts->setPlaceholderText(QStringLiteral("localhost:27017"));
    m_hosts->setToolTip(tr("host:port, comma-separated for a replica set seed list."));
    m_password->setEchoMode(QLineEdit::Password);
    m_authSource->setPlaceholderText(tr("admin (default)"));
    m_caFile->setPlaceholderText(tr("system certificate store"));
    m_remember->setToolTip(tr("Stored by the operating system's keychain; never in a file. "
                              "Without this, you are asked again next time."));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_recents = ConnectionStore::load();
    m_recent->addItem(tr("New connection"));
    for (const auto &r : m_recents)
        m_recent->addItem(QStringLiteral("%1 — %2").arg(r.name, r.uri));

    m_removeRecent->setToolTip(tr("Remove the selected connection from this list (and its "
                                  "password from the keychain)."));
    m_removeRecent->setEnabled(false);
    auto *recentRow = new QHBoxLayout;
    recentRow->addWidget(m_recent, 1);
    recentRow->addWidget(m_removeRecent);
    auto *top = new QFormLayout;
    top->addRow(tr("&Recent:"), recentRow);
    if (auto *label = qobject_cast<QLabel *>(top->labelForField(recentRow)))
        label->setBuddy(m_recent);
    top->addRow(tr("&Name:"), m_name);
    top->addRow(tr("&URI:"), m_uri);

    auto *serverBox = new QGroupBox(tr("Server"), this);
    auto *server = new QFormLayout(serverBox);
    server->addRow(tr("&Hosts:"), m_hosts);
    server->addRow(QString(), m_srv);
    server->addRow(tr("Replica &set:"), m_replicaSet);
    auto *authBox = new QGroupBox(tr("Authentication"), this);
    auto *auth = new QFormLayout(authBox);
    auth->addRow(tr("U&ser:"), m_user);
    auth->addRow(tr("&Password:"), m_password);
    auth->addRow(tr("Auth &database:"), m_authSource);
    auth->addRow(QString(), m_remember);
    auto *tlsBox = new QGroupBox(tr("TLS"), this);
    auto *tls = new QFormLayout(tlsBox);
    tls->addRow(QString(), m_tls);
    tls->addRow(tr("C&A file:"), withBrowse(m_caFile, tr("CA certificate"), this));
    tls->addRow(tr("Client c&ertificate:"),
                withBrowse(m_certFile, tr("Client certificate and key"), this));
    tls->addRow(QString(), m_allowInvalid);

    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_test, QDialogButtonBox::ActionRole);
    buttons->addButton(m_connect, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    m_connect->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(serverBox);
    layout->addWidget(authBox);
    layout->addWidget(tlsBox);
    layout->addWidget(m_status);
    layout->addStretch(1);
    layout->addWidget(buttons);

    connect(m_uri, &QLineEdit::textEdited, this, &ConnectionDialog::uriEdited);
    for (QLineEdit *edit : {m_hosts, m_user, m_password, m_authSource, m_replicaSet})
        connect(edit, &QLineEdit::textEdited, this, &ConnectionDialog::formEdited);
    // mongodb+srv means TLS unless the string turns it off: ticking it ticks TLS too, so the
    // rebuilt URI does not say tls=false behind the user's back.
    connect(m_srv, &QCheckBox::toggled, this, [this](bool on) {
        if (on && !m_syncing)
            m_tls->setChecked(true);
    });
    for (QCheckBox *box : {m_srv, m_tls})
        connect(box, &QCheckBox::toggled, this, &ConnectionDialog::formEdited);
    for (QLineEdit *edit : {m_caFile, m_certFile, m_name})
        connect(edit, &QLineEdit::textChanged, this, &ConnectionDialog::validate);
    connect(m_recent, &QComboBox::currentIndexChanged, this, &ConnectionDialog::applyRecent);
    connect(m_removeRecent, &QPushButton::clicked, this, &ConnectionDialog::removeRecent);
    connect(m_test, &QPushButton::clicked, this, &ConnectionDialog::testConnection);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    if (m_vault)
        connect(m_vault, &PasswordVault::readFinished, this,
                [this](const QString &key, const QString &password, const QString &error) {
                    const int i = m_recent->currentIndex() - 1;
                    if (i < 0 || i >= m_recents.size() || m_recents[i].keychainKey() != key)
                        return;
                    if (!error.isEmpty())
                        m_status->setText(tr("The keychain did not return the password (%1): "
                                             "type it in.")
                                              .arg(error));
                    else
                        setPassword(password);
                });
    setUri(QStringLiteral("mongodb://localhost:27017/"));
}

void ConnectionDialog::setUri(const QString &uri)
{
    m_uri->setText(uri);
    uriEdited();
}

void ConnectionDialog::setPassword(const QString &password)
{
    m_password->setText(password);
    formEdited();
}

void ConnectionDialog::uriEdited()
{
    if (m_syncing)
        return;
    ConnectionUri parts;
    QString error;
    if (!ConnectionUri::parse(m_uri->text(), &parts, &error)) {
        validate();
        return;
    }
    m_syncing = true;
    if (!parts.password.isEmpty()) {
        // Move the password out of sight.
        m_password->setText(parts.password);
        const int typedCursor = m_uri->cursorPosition();
        int cursor = typedCursor;
        QString without = withoutTypedPassword(m_uri->text(), &cursor);
        ConnectionUri check;
        if (without.isEmpty() || !ConnectionUri::parse(without, &check, &error) ||
            !check.password.isEmpty() || check.hosts != parts.hosts ||
            check.username != parts.username) {
            without = parts.toUriWithoutPassword(); // an unusual spelling: rebuild it
            cursor = typedCursor;
        }
        m_uri->setText(without);
        m_uri->setCursorPosition(std::min(cursor, int(without.size())));
    }
    m_hosts->setText(parts.hosts);
    m_srv->setChecked(parts.srv);
    m_user->setText(parts.username);
    m_authSource->setText(parts.authSource);
    m_replicaSet->setText(parts.replicaSet);
    m_tls->setChecked(parts.tls);
    m_otherOptions = parts.otherOptions;
    m_database = parts.database;
    m_authMechanism = parts.authMechanism;
    m_syncing = false;
    validate();
}

void ConnectionDialog::formEdited()
{
    if (m_syncing)
        return;
    ConnectionUri parts;
    parts.srv = m_srv->isChecked();
    parts.hosts = m_hosts->text();
    parts.username = m_user->text();
    parts.authSource = m_authSource->text();
    parts.replicaSet = m_replicaSet->text();
    parts.tls = m_tls->isChecked();
    parts.otherOptions = m_otherOptions;
    parts.database = m_database;
    parts.authMechanism = m_authMechanism;
    m_syncing = true;
    m_uri->setText(parts.toUriWithoutPassword());
    m_syncing = false;
    validate();
}

QString ConnectionDialog::problem() const
{
    ConnectionUri parts;
    QString error;
    if (!ConnectionUri::parse(m_uri->text(), &parts, &error))
        return error;
    if (!m_password->text().isEmpty() && m_user->text().isEmpty())
        return tr("a password needs a user name");
    for (QLineEdit *file : {m_caFile, m_certFile})
        if (!file->text().isEmpty() && !QFileInfo::exists(file->text()))
            return tr("file not found: %1").arg(file->text());
    if (const QString p = MongoConnection::validateUri(settings().uri); !p.isEmpty())
        return p;
    return {};
}

void ConnectionDialog::validate()
{
    const QString p = problem();
    m_connect->setEnabled(p.isEmpty());
    m_test->setEnabled(p.isEmpty());
    m_uri->setStyleSheet(p.isEmpty() ? QString() : QStringLiteral("color: #d9480f"));
    m_status->setText(p.isEmpty() ? tr("Ready to connect.") : tr("Not valid yet: %1").arg(p));
}

QString ConnectionDialog::connectionName() const
{
    if (!m_name->text().trimmed().isEmpty())
        return m_name->text().trimmed();
    return m_hosts->text().trimmed().isEmpty() ? QStringLiteral("localhost")
                                               : m_hosts->text().trimmed();
}

ConnectionSettings ConnectionDialog::settings() const
{
    ConnectionUri parts;
    QString error;
    ConnectionSettings s;
    if (ConnectionUri::parse(m_uri->text(), &parts, &error)) {
        parts.password = m_password->text();
        s.uri = parts.toUri();
    } else {
        s.uri = m_uri->text();
    }
    s.tlsCaFile = m_caFile->text();
    s.tlsCertificateKeyFile = m_certFile->text();
    s.tlsAllowInvalidHostnames = m_allowInvalid->isChecked();
    return s;
}

QString ConnectionDialog::password() const
{
    return m_password->text();
}

bool ConnectionDialog::rememberPassword() const
{
    return m_remember->isChecked() && !m_password->text().isEmpty();
}

RecentConnection ConnectionDialog::recent() const
{
    RecentConnection r;
    r.name = connectionName();
    ConnectionUri parts;
    QString error;
    r.uri = ConnectionUri::parse(m_uri->text(), &parts, &error) ? parts.toUriWithoutPassword()
                                                                : QString();
    r.tlsCaFile = m_caFile->text();
    r.tlsCertificateKeyFile = m_certFile->text();
    r.tlsAllowInvalidHostnames = m_allowInvalid->isChecked();
    r.passwordInKeychain = rememberPassword();
    return r;
}

void ConnectionDialog::removeRecent()
{
    const int i = m_recent->currentIndex() - 1;
    if (i < 0 || i >= m_recents.size())
        return;
    const RecentConnection gone = m_recents.takeAt(i);
    ConnectionStore::forget(gone.name);
    if (gone.passwordInKeychain && m_vault)
        m_vault->remove(gone.keychainKey());
    m_recent->setCurrentIndex(0);
    m_recent->removeItem(i + 1);
    m_status->setText(tr("Removed %1 from the recent connections.").arg(gone.name));
}

void ConnectionDialog::applyRecent(int index)
{
    const int i = index - 1;
    m_removeRecent->setEnabled(i >= 0 && i < m_recents.size());
    if (i < 0 || i >= m_recents.size())
        return;
    const RecentConnection &r = m_recents[i];
    m_name->setText(r.name);
    m_password->clear();
    setUri(r.uri);
    m_caFile->setText(r.tlsCaFile);
    m_certFile->setText(r.tlsCertificateKeyFile);
    m_allowInvalid->setChecked(r.tlsAllowInvalidHostnames);
    m_remember->setChecked(r.passwordInKeychain);
    if (r.passwordInKeychain && m_vault)
        m_vault->read(r.keychainKey());
}

void ConnectionDialog::testConnection()
{
    if (!problem().isEmpty())
        return;
    // Disabled, the button would pass the focus on to Cancel, and Enter would cancel: the
    // default button takes it, so Enter connects.
    if (m_test->hasFocus())
        m_connect->setFocus(Qt::OtherFocusReason);
    m_test->setEnabled(false);
    m_status->setText(tr("Testing %1…").arg(UriRedactor::redact(settings().uri)));
    const ConnectionSettings s = settings();
    const QString database = m_database.isEmpty() ? QStringLiteral("test") : m_database;
    m_testJob->start(
        [s, database] {
            TestOutcome outcome;
            SourceError error;
            ServerInfo info;
            if (ServerProbe::probe(s, database, &info, &error)) {
                outcome.ok = true;
                outcome.text = info.summary();
                if (!info.notes.isEmpty())
                    outcome.text += QStringLiteral("\n") + info.notes.join(QStringLiteral("\n"));
            } else {
                outcome.text = UriRedactor::redactText(error.toString());
            }
            return outcome;
        },
        [this](const TestOutcome &outcome) {
            m_test->setEnabled(problem().isEmpty());
            m_status->setText(outcome.ok ? tr("Connected: %1").arg(outcome.text)
                                         : tr("Failed: %1").arg(outcome.text));
            emit testFinished(outcome.ok, outcome.text);
        });
}

} // namespace oe
