#include "mongo/ConnectionUri.h"

#include "mongo/MongoConnection.h"
#include "mongo/internal/DriverHandles.h"

#include <QStringList>
#include <QUrl>

#include <mongoc/mongoc.h>

namespace oe {

namespace {

QString str(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}

QString encoded(const QString &s)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(s));
}

const QStringList &formKeys()
{
    static const QStringList keys{QStringLiteral("authsource"), QStringLiteral("authmechanism"),
                                  QStringLiteral("replicaset"), QStringLiteral("tls"),
                                  QStringLiteral("ssl")};
    return keys;
}

} // namespace

bool ConnectionUri::parse(const QString &uri, ConnectionUri *out, QString *error)
{
    // Pasted strings often carry a space or newline at either end: ignore it everywhere.
    const QString text = uri.trimmed();
    if (const QString problem = MongoConnection::validateUri(text); !problem.isEmpty()) {
        *error = problem;
        return false;
    }
    const QByteArray utf8 = text.toUtf8();
    bson_error_t e;
    const UriHandle owner(mongoc_uri_new_with_error(utf8.constData(), &e));
    const mongoc_uri_t *parsed = owner.get();
    if (!parsed) {
        *error = QString::fromUtf8(e.message);
        return false;
    }
    ConnectionUri r;
    r.srv = utf8.startsWith("mongodb+srv://");
    if (r.srv) {
        r.hosts = str(mongoc_uri_get_srv_hostname(parsed));
    } else {
        QStringList hosts;
        for (const mongoc_host_list_t *h = mongoc_uri_get_hosts(parsed); h; h = h->next)
            hosts << str(h->host_and_port);
        r.hosts = hosts.join(QLatin1Char(','));
    }
    r.username = str(mongoc_uri_get_username(parsed));
    r.password = str(mongoc_uri_get_password(parsed));
    r.database = str(mongoc_uri_get_database(parsed));
    r.replicaSet = str(mongoc_uri_get_replica_set(parsed));
    r.tls = mongoc_uri_get_tls(parsed);
    // authSource and authMechanism as written (the getters fall back to defaults).
    if (const bson_t *creds = mongoc_uri_get_credentials(parsed)) {
        bson_iter_t it;
        if (bson_iter_init_find_case(&it, creds, MONGOC_URI_AUTHSOURCE) &&
            BSON_ITER_HOLDS_UTF8(&it))
            r.authSource = str(bson_iter_utf8(&it, nullptr));
        if (bson_iter_init_find_case(&it, creds, MONGOC_URI_AUTHMECHANISM) &&
            BSON_ITER_HOLDS_UTF8(&it))
            r.authMechanism = str(bson_iter_utf8(&it, nullptr));
    }

    // Options the form does not edit, kept as written.
    const qsizetype q = text.indexOf(QLatin1Char('?'));
    if (q >= 0) {
        QStringList other;
        const QStringList pairs = text.mid(q + 1).split(QLatin1Char('&'), Qt::SkipEmptyParts);
        for (const QString &pair : pairs) {
            const QString key = pair.section(QLatin1Char('='), 0, 0).toLower();
            if (!formKeys().contains(key))
                other << pair;
        }
        r.otherOptions = other.join(QLatin1Char('&'));
    }
    *out = r;
    return true;
}

QString ConnectionUri::toUriWithoutPassword() const
{
    ConnectionUri copy = *this;
    copy.password.clear();
    return copy.toUri();
}

QString ConnectionUri::toUri() const
{
    QString uri = srv ? QStringLiteral("mongodb+srv://") : QStringLiteral("mongodb://");
    if (!username.isEmpty()) {
        uri += encoded(username);
        if (!password.isEmpty())
            uri += QLatin1Char(':') + encoded(password);
        uri += QLatin1Char('@');
    }
    uri += hosts.trimmed().isEmpty() ? QStringLiteral("localhost:27017") : hosts.trimmed();
    uri += QLatin1Char('/');
    if (!database.isEmpty())
        uri += encoded(database);
    QStringList options;
    if (!authSource.isEmpty())
        options << QStringLiteral("authSource=") + encoded(authSource);
    if (!authMechanism.isEmpty())
        options << QStringLiteral("authMechanism=") + encoded(authMechanism);
    if (!replicaSet.isEmpty())
        options << QStringLiteral("replicaSet=") + encoded(replicaSet);
    if (tls)
        options << QStringLiteral("tls=true");
    else if (srv)
        options << QStringLiteral("tls=false"); // mongodb+srv turns TLS on unless told not to
    if (!otherOptions.isEmpty())
        options << otherOptions;
    if (!options.isEmpty())
        uri += QLatin1Char('?') + options.join(QLatin1Char('&'));
    return uri;
}

} // namespace oe
