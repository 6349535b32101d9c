#include "ConnectionOptions.h"

#include "CliSupport.h"
#include "mongo/ConnectionUri.h"
#include "mongo/MongoConnection.h"
#include "mongo/NamespaceNames.h"

#include <QFileInfo>

namespace cli {

void addConnectionOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("uri"), QStringLiteral("mongodb:// or mongodb+srv:// connection string."),
         QStringLiteral("URI")},
        {QStringLiteral("tls-ca-file"),
         QStringLiteral("CA certificates (PEM) to verify the server."), QStringLiteral("FILE")},
        {QStringLiteral("tls-certificate-key-file"),
         QStringLiteral("Client certificate and key (PEM)."), QStringLiteral("FILE")},
        {QStringLiteral("tls-allow-invalid-hostnames"),
         QStringLiteral("Accept server certificates for other host names.")},
        {QStringLiteral("server-selection-timeout-ms"),
         QStringLiteral("How long to look for a server (default 10000)."), QStringLiteral("MS")},
    });
}

void addNamespaceOptions(QCommandLineParser &parser)
{
    parser.addOptions({
        {QStringLiteral("db"), QStringLiteral("Database (with --uri; default: the URI's)."),
         QStringLiteral("DB")},
        {QStringLiteral("collection"), QStringLiteral("Collection (with --uri)."),
         QStringLiteral("NAME")},
    });
}

QString databaseOf(const QCommandLineParser &parser, const oe::ConnectionSettings &settings)
{
    if (const QString db = parser.value(QStringLiteral("db")); !db.isEmpty())
        return db;
    oe::ConnectionUri uri;
    QString ignored; // connectionSettings() refused a bad URI already
    return oe::ConnectionUri::parse(settings.uri, &uri, &ignored) ? uri.database : QString();
}

bool connectionSettings(const QCommandLineParser &parser, oe::ConnectionSettings *settings)
{
    settings->uri = parser.value(QStringLiteral("uri"));
    if (const QString problem = oe::MongoConnection::validateUri(settings->uri);
        !problem.isEmpty()) {
        fail(ExitUsage, QStringLiteral("--uri: %1").arg(problem));
        return false;
    }
    for (const char *name : {"tls-ca-file", "tls-certificate-key-file"}) {
        const QString option = QString::fromLatin1(name);
        if (parser.isSet(option) && !QFileInfo(parser.value(option)).isReadable()) {
            fail(ExitUsage,
                 QStringLiteral("--%1: cannot read '%2'").arg(option, parser.value(option)));
            return false;
        }
    }
    settings->tlsCaFile = parser.value(QStringLiteral("tls-ca-file"));
    settings->tlsCertificateKeyFile = parser.value(QStringLiteral("tls-certificate-key-file"));
    settings->tlsAllowInvalidHostnames =
        parser.isSet(QStringLiteral("tls-allow-invalid-hostnames"));
    std::optional<std::uint64_t> timeout;
    if (!unsignedOption(parser, QStringLiteral("server-selection-timeout-ms"), timeout, 1,
                        3'600'000))
        return false;
    if (timeout)
        settings->serverSelectionTimeoutMs = int(*timeout);
    return true;
}

bool liveCollection(const QCommandLineParser &parser, const QString &command,
                    LiveCollection *target)
{
    if (!parser.isSet(QStringLiteral("uri"))) {
        fail(ExitUsage, QStringLiteral("%1 needs --uri URI").arg(command));
        return false;
    }
    if (!connectionSettings(parser, &target->settings))
        return false;
    target->database = databaseOf(parser, target->settings);
    target->collection = parser.value(QStringLiteral("collection"));
    if (target->database.isEmpty() || target->collection.isEmpty()) {
        fail(ExitUsage, QStringLiteral("%1 needs --db and --collection").arg(command));
        return false;
    }
    return namespaceNames(target->database, target->collection);
}

bool namespaceNames(const QString &database, const QString &collection,
                    const QString &collectionOption)
{
    QString problem;
    if (!database.isEmpty())
        problem = oe::NamespaceNames::databaseProblem(QStringLiteral("--db"), database);
    if (problem.isEmpty() && !collection.isEmpty())
        problem = oe::NamespaceNames::collectionProblem(collectionOption, collection);
    if (problem.isEmpty())
        return true;
    fail(ExitUsage, problem);
    return false;
}

} // namespace cli
