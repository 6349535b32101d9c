#include "mongo/MongoConnection.h"

#include "mongo/internal/DriverHandles.h"
#include "mongo/internal/MongoDriver.h"

#include "bson/internal/BsonDocument.h"
#include "mongo/ConnectionReuse.h"
#include "mongo/MongoRuntime.h"
#include "mongo/UriRedactor.h"

#include <QByteArray>

#include <algorithm>
#include <iterator>

#include <mongoc/mongoc.h>

namespace oe {

struct MongoConnection::Driver
{
    ClientHandle client;
};

MongoConnection::MongoConnection() : d(std::make_shared<Driver>()) {}

MongoConnection::~MongoConnection() = default;

namespace {

QString hostList(const mongoc_uri_t *uri)
{
    if (const char *srv = mongoc_uri_get_srv_hostname(uri))
        return QString::fromUtf8(srv);
    QStringList hosts;
    for (const mongoc_host_list_t *h = mongoc_uri_get_hosts(uri); h; h = h->next)
        hosts << QString::fromUtf8(h->host_and_port);
    return hosts.join(QLatin1Char(','));
}

QString describeUriError(const char *message, const QString &warnings)
{
    QString text = QStringLiteral("invalid connection string: %1")
                       .arg(UriRedactor::redactText(QString::fromUtf8(message)));
    if (!warnings.isEmpty())
        text += QStringLiteral(" (%1)").arg(warnings);
    return text;
}

void setDefault(mongoc_uri_t *uri, const char *option, int value)
{
    if (!mongoc_uri_has_option(uri, option))
        mongoc_uri_set_option_as_int32(uri, option, value);
}

// A connection attempt that hangs (tls=true against a server without TLS waits for a handshake
// reply) takes the connect timeout whatever the server selection timeout says, since a
// single-threaded client does not interrupt it: so unless the URI sets its own connect timeout,
// it never exceeds the selection timeout in effect.
void applyTimeouts(mongoc_uri_t *uri, const ConnectionSettings &settings)
{
    setDefault(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, settings.serverSelectionTimeoutMs);
    const int selection = mongoc_uri_get_option_as_int32(uri, MONGOC_URI_SERVERSELECTIONTIMEOUTMS,
                                                         settings.serverSelectionTimeoutMs);
    setDefault(uri, MONGOC_URI_CONNECTTIMEOUTMS,
               selection > 0 ? std::min(settings.connectTimeoutMs, selection)
                             : settings.connectTimeoutMs);
    setDefault(uri, MONGOC_URI_SOCKETTIMEOUTMS, settings.socketTimeoutMs);
}

} // namespace

QString MongoConnection::validateUri(const QString &uri)
{
    MongoRuntime::WarningCapture warnings;
    bson_error_t error;
    const UriHandle parsed(mongoc_uri_new_with_error(uri.toUtf8().constData(), &error));
    if (!parsed)
        return describeUriError(error.message, warnings.text());
    return {};
}

std::unique_ptr<MongoConnection> MongoConnection::open(const ConnectionSettings &settings,
                                                       SourceError *error)
{
    MongoRuntime::ensureInitialized();
    MongoRuntime::clearDriverMessages(); // what earlier connections logged does not concern us
    const QString redacted = UriRedactor::redact(settings.uri);
    bson_error_t e;
    MongoRuntime::WarningCapture warnings;
    const UriHandle uri(mongoc_uri_new_with_error(settings.uri.toUtf8().constData(), &e));
    if (!uri) {
        SourceError err;
        err.kind = SourceError::Kind::Usage;
        err.source = redacted;
        err.message = describeUriError(e.message, warnings.text());
        *error = err;
        return nullptr;
    }
    if (!mongoc_uri_get_appname(uri.get()))
        mongoc_uri_set_appname(uri.get(), settings.appName.toUtf8().constData());
    applyTimeouts(uri.get(), settings);
    if (!settings.tlsCaFile.isEmpty() || !settings.tlsCertificateKeyFile.isEmpty() ||
        settings.tlsAllowInvalidHostnames)
        mongoc_uri_set_option_as_bool(uri.get(), MONGOC_URI_TLS, true);
    if (!settings.tlsCaFile.isEmpty())
        mongoc_uri_set_option_as_utf8(uri.get(), MONGOC_URI_TLSCAFILE,
                                      settings.tlsCaFile.toUtf8().constData());
    if (!settings.tlsCertificateKeyFile.isEmpty())
        mongoc_uri_set_option_as_utf8(uri.get(), MONGOC_URI_TLSCERTIFICATEKEYFILE,
                                      settings.tlsCertificateKeyFile.toUtf8().constData());
    if (settings.tlsAllowInvalidHostnames)
        mongoc_uri_set_option_as_bool(uri.get(), MONGOC_URI_TLSALLOWINVALIDHOSTNAMES, true);
    // Analysis reads everything: keep that load off primaries unless the user says otherwise.
    if (!mongoc_uri_has_option(uri.get(), MONGOC_URI_READPREFERENCE)) {
        const ReadPrefsHandle prefs(mongoc_read_prefs_new(MONGOC_READ_SECONDARY_PREFERRED));
        mongoc_uri_set_read_prefs_t(uri.get(), prefs.get());
    }
    // libmongoc keeps the URI's compressors apart from its other options.
    const bson_t *named = mongoc_uri_get_compressors(uri.get());
    const bool namesCompressors = named && !bson_empty(named);
    if (!settings.compressors.isEmpty() && !namesCompressors)
        mongoc_uri_set_compressors(uri.get(), settings.compressors.toUtf8().constData());

    std::unique_ptr<MongoConnection> connection(new MongoConnection);
    connection->m_redactedUri = redacted;
    connection->m_hosts = hostList(uri.get());
    connection->m_uriNamesCompressors = namesCompressors;
    connection->m_appName = QString::fromUtf8(mongoc_uri_get_appname(uri.get()));
    if (const char *db = mongoc_uri_get_database(uri.get()))
        connection->m_defaultDatabase = QString::fromUtf8(db);
    if (auto shared = ConnectionReuse::shared(settings)) {
        connection->d = std::static_pointer_cast<Driver>(shared);
        return connection;
    }
    connection->d->client.reset(mongoc_client_new_from_uri_with_error(uri.get(), &e));
    if (!connection->d->client) {
        *error = MongoDriver::errorFrom(*connection, e, QStringLiteral("creating the client"));
        return nullptr;
    }
    mongoc_client_set_error_api(connection->d->client.get(), MONGOC_ERROR_API_VERSION_2);
    ConnectionReuse::keep(settings, connection->d);
    return connection;
}

QString MongoConnection::readPreference() const
{
    switch (mongoc_read_prefs_get_mode(mongoc_client_get_read_prefs(d->client.get()))) {
    case MONGOC_READ_PRIMARY:
        return QStringLiteral("primary");
    case MONGOC_READ_PRIMARY_PREFERRED:
        return QStringLiteral("primaryPreferred");
    case MONGOC_READ_SECONDARY:
        return QStringLiteral("secondary");
    case MONGOC_READ_SECONDARY_PREFERRED:
        return QStringLiteral("secondaryPreferred");
    case MONGOC_READ_NEAREST:
        return QStringLiteral("nearest");
    }
    return {};
}

mongoc_client_t *MongoDriver::client(const MongoConnection &connection)
{
    return connection.d->client.get();
}

std::optional<bool> MongoDriver::collectionExists(const MongoConnection &connection,
                                                  const QString &database,
                                                  const QString &collection, const QString &step,
                                                  SourceError *error)
{
    const DatabaseHandle db(
        mongoc_client_get_database(client(connection), database.toUtf8().constData()));
    const BsonDocument opts = BsonDocument::adopt(
        BCON_NEW("filter", "{", "name", BCON_UTF8(collection.toUtf8().constData()), "}"));
    const CursorHandle list(mongoc_database_find_collections_with_opts(db.get(), opts.get()));
    const bson_t *doc = nullptr;
    const bool found = mongoc_cursor_next(list.get(), &doc);
    bson_error_t e;
    if (mongoc_cursor_error(list.get(), &e)) {
        *error = errorFrom(connection, e, step);
        return std::nullopt;
    }
    return found;
}

namespace {

// Which kind of connection failure a driver error is, from its domain and code.
SourceError::ConnectionFault faultOf(const bson_error_t &e, const QString &message)
{
    using Fault = SourceError::ConnectionFault;
    // The server's codes for a lost or closing peer: HostUnreachable, HostNotFound,
    // NetworkTimeout, ShutdownInProgress, SocketException, InterruptedAtShutdown,
    // NotWritablePrimary/NotPrimary… during a failover.
    static constexpr std::uint32_t kServerGone[] = {6,   7,     89,    91,    9001,
                                                    189, 10107, 11600, 11602, 13435};
    // AuthenticationFailed, Unauthorized.
    static constexpr std::uint32_t kServerAuth[] = {18, 13};
    const auto among = [&](const auto &codes) {
        return std::find(std::begin(codes), std::end(codes), e.code) != std::end(codes);
    };
    const bool authText = message.contains(QLatin1String("uthenticat"));
    switch (e.domain) {
    case MONGOC_ERROR_STREAM:
        return Fault::Lost;
    case MONGOC_ERROR_SERVER_SELECTION:
        return authText ? Fault::Authentication : Fault::Lost;
    case MONGOC_ERROR_CLIENT:
        if (e.code == MONGOC_ERROR_CLIENT_AUTHENTICATE || authText)
            return Fault::Authentication;
        return Fault::Unknown;
    case MONGOC_ERROR_SERVER:
    case MONGOC_ERROR_WRITE_CONCERN:
        if (among(kServerAuth))
            return Fault::Authentication;
        return among(kServerGone) ? Fault::Lost : Fault::Refused;
    default:
        return Fault::Unknown;
    }
}

} // namespace

SourceError MongoDriver::errorFrom(const MongoConnection &connection, const bson_error_t &e,
                                   const QString &step)
{
    SourceError err;
    err.kind = SourceError::Kind::Connection;
    err.source = connection.m_hosts;
    QString message = UriRedactor::redactText(QString::fromUtf8(e.message));
    // libmongoc 1.23 leaves the message empty when it selects again from a topology it has
    // already emptied (a replica set name that does not match).
    if (message.isEmpty())
        message = e.domain == MONGOC_ERROR_SERVER_SELECTION
                      ? QStringLiteral("No suitable servers found")
                      : QStringLiteral("failed (driver error %1.%2)").arg(e.domain).arg(e.code);
    if (e.domain == MONGOC_ERROR_SERVER || e.domain == MONGOC_ERROR_WRITE_CONCERN)
        message += QStringLiteral(" (server error %1)").arg(e.code);
    if (e.domain == MONGOC_ERROR_SERVER)
        err.serverCode = int(e.code);
    err.fault = faultOf(e, message);
    // A client whose connection failed is not lent again: the next step of the use case
    // connects afresh, with the driver's own account of why (a shared client would only say it
    // is cooling down). One whose operation the server refused stays lent.
    if (err.fault != SourceError::ConnectionFault::Refused)
        ConnectionReuse::forget(connection.d.get());
    // The driver often logs the cause (a server dropped from the topology) apart from the error.
    if (const QString driver = MongoRuntime::recentDriverMessages();
        !driver.isEmpty() && !message.contains(driver))
        message += QStringLiteral(" (driver: %1)").arg(driver);
    err.message = step + QStringLiteral(": ") + message;
    return err;
}

QByteArray MongoConnection::command(const QString &db, const QByteArray &commandBson,
                                    const QString &step, SourceError *error) const
{
    bson_t cmd;
    if (!bson_init_static(&cmd, reinterpret_cast<const std::uint8_t *>(commandBson.constData()),
                          std::size_t(commandBson.size()))) {
        error->kind = SourceError::Kind::Usage;
        error->message = step + QStringLiteral(": malformed command");
        return {};
    }
    BsonDocument reply;
    bson_error_t e;
    if (mongoc_client_command_simple(d->client.get(), db.toUtf8().constData(), &cmd, nullptr,
                                     reply.reply(), &e))
        return reply.bytes();
    *error = MongoDriver::errorFrom(*this, e, step);
    return {};
}

} // namespace oe
