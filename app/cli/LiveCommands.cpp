#include "LiveCommands.h"

#include "CliSupport.h"
#include "ConnectionOptions.h"
#include "mongo/CollectionCatalog.h"
#include "mongo/DumpImporter.h"
#include "mongo/ServerProbe.h"

#include <QCommandLineParser>
#include <QLocale>

#include <cstdio>

namespace {

QString optionalNumber(const std::optional<qint64> &v)
{
    return v ? QString::number(*v) : QString();
}

std::optional<int> parse(QCommandLineParser &parser, const QStringList &arguments,
                         const QString &description)
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    return cli::parseOrHelp(parser, arguments);
}

// The connection a --uri command works on: nullptr after a one-line error, with the exit code.
std::unique_ptr<oe::MongoConnection> connect(const QCommandLineParser &parser,
                                             const QString &command, int *exitCode)
{
    if (!parser.isSet(QStringLiteral("uri"))) {
        *exitCode = cli::fail(ExitUsage, QStringLiteral("%1 needs --uri URI").arg(command));
        return nullptr;
    }
    oe::ConnectionSettings settings;
    if (!cli::connectionSettings(parser, &settings)) {
        *exitCode = ExitUsage;
        return nullptr;
    }
    oe::SourceError error;
    auto connection = oe::MongoConnection::open(settings, &error);
    if (!connection)
        *exitCode = cli::fail(cli::exitCodeFor(error), error.toString());
    return connection;
}

} // namespace

int LiveCommands::list(const QStringList &arguments)
{
    QCommandLineParser parser;
    cli::addConnectionOptions(parser);
    parser.addOptions({
        {QStringLiteral("db"),
         QStringLiteral("List this database's collections (default: every database)."),
         QStringLiteral("DB")},
        {QStringLiteral("system"), QStringLiteral("Include system.* collections.")},
    });
    if (const auto exit =
            parse(parser, arguments,
                  QStringLiteral("List databases and collections with their statistics (CSV).")))
        return *exit;
    int exitCode = ExitSuccess;
    auto connection = connect(parser, QStringLiteral("list"), &exitCode);
    if (!connection)
        return exitCode;
    oe::SourceError error;

    QStringList databases;
    if (parser.isSet(QStringLiteral("db"))) {
        if (!cli::namespaceNames(parser.value(QStringLiteral("db")), {}))
            return ExitUsage;
        databases << parser.value(QStringLiteral("db"));
    } else {
        std::vector<oe::DatabaseInfo> dbs;
        if (!oe::CollectionCatalog::databases(*connection, &dbs, &error))
            return cli::fail(cli::exitCodeFor(error), error.toString());
        for (const auto &db : dbs)
            databases << db.name;
    }
    std::printf("database,collection,type,documents,data_size,avg_document_size,storage_size,"
                "indexes,stats_source\r\n");
    for (const QString &db : databases) {
        std::vector<oe::CollectionInfo> collections;
        if (!oe::CollectionCatalog::collections(*connection, db, &collections, &error))
            return cli::fail(cli::exitCodeFor(error), error.toString());
        for (const auto &c : collections) {
            if (c.isSystem && !parser.isSet(QStringLiteral("system")))
                continue;
            const QStringList row = {c.database,
                                     c.name,
                                     c.isSystem ? QStringLiteral("system") : c.type,
                                     optionalNumber(c.documents),
                                     optionalNumber(c.dataSize),
                                     optionalNumber(c.averageDocumentSize),
                                     optionalNumber(c.storageSize),
                                     optionalNumber(c.indexes),
                                     c.statsSource};
            QStringList escaped;
            for (const QString &f : row)
                escaped << (f.contains(QLatin1Char(',')) || f.contains(QLatin1Char('"'))
                                ? QLatin1Char('"') +
                                      QString(f).replace(QStringLiteral("\""),
                                                         QStringLiteral("\"\"")) +
                                      QLatin1Char('"')
                                : f);
            std::printf("%s\r\n", qPrintable(escaped.join(QLatin1Char(','))));
        }
    }
    return ExitSuccess;
}

int LiveCommands::import(const QStringList &arguments)
{
    QCommandLineParser parser;
    cli::addConnectionOptions(parser);
    parser.addOptions({
        {QStringLiteral("db"), QStringLiteral("Target database."), QStringLiteral("DB")},
        {QStringLiteral("collection"), QStringLiteral("Target collection."),
         QStringLiteral("NAME")},
        {QStringLiteral("dump"), QStringLiteral("The .bson (or .bson.gz) file to load."),
         QStringLiteral("FILE")},
        {QStringLiteral("drop"), QStringLiteral("Drop the collection first.")},
    });
    if (const auto exit =
            parse(parser, arguments,
                  QStringLiteral("Bulk-load a mongodump .bson file into a collection.")))
        return *exit;
    for (const char *required : {"uri", "db", "collection", "dump"})
        if (!parser.isSet(QString::fromLatin1(required)))
            return cli::fail(
                ExitUsage,
                QStringLiteral("import needs --uri, --db, --collection and --dump (missing --%1)")
                    .arg(QLatin1String(required)));
    oe::ConnectionSettings settings;
    if (!cli::connectionSettings(parser, &settings))
        return ExitUsage;
    oe::DumpImporter::Options options;
    options.drop = parser.isSet(QStringLiteral("drop"));
    oe::DumpImporter::Result result;
    oe::SourceError error;
    const QString db = parser.value(QStringLiteral("db"));
    const QString collection = parser.value(QStringLiteral("collection"));
    if (!cli::namespaceNames(db, collection))
        return ExitUsage;
    const bool ok = oe::DumpImporter::run(
        settings, db, collection, parser.value(QStringLiteral("dump")), options, &result, &error);
    std::printf("imported %llu documents (%s) into %s.%s in %.2f s\n",
                static_cast<unsigned long long>(result.documents),
                qPrintable(QLocale::c().formattedDataSize(qint64(result.bytes), 1,
                                                          QLocale::DataSizeIecFormat)),
                qPrintable(db), qPrintable(collection), result.seconds);
    if (!ok)
        return cli::fail(cli::exitCodeFor(error), error.toString());
    return ExitSuccess;
}

int LiveCommands::testConnection(const QStringList &arguments)
{
    QCommandLineParser parser;
    cli::addConnectionOptions(parser);
    parser.addOption(
        {QStringLiteral("db"),
         QStringLiteral("Database for the capability probes (default: the URI's, else test)."),
         QStringLiteral("DB")});
    if (const auto exit = parse(
            parser, arguments,
            QStringLiteral("Connect and report the server's version, topology and capabilities.")))
        return *exit;
    int exitCode = ExitSuccess;
    auto connection = connect(parser, QStringLiteral("test-connection"), &exitCode);
    if (!connection)
        return exitCode;
    oe::SourceError error;
    QString db = parser.value(QStringLiteral("db"));
    if (db.isEmpty())
        db = connection->defaultDatabase().isEmpty() ? QStringLiteral("test")
                                                     : connection->defaultDatabase();
    oe::ServerInfo info;
    if (!oe::ServerProbe::probe(*connection, db, &info, &error))
        return cli::fail(cli::exitCodeFor(error), error.toString());
    std::printf("uri: %s\n", qPrintable(connection->redactedUri()));
    std::printf("server: %s %s\n", info.isFerretDb ? "FerretDB" : "MongoDB",
                qPrintable(info.isFerretDb ? info.ferretDbVersion +
                                                 QStringLiteral(" (compatible with MongoDB ") +
                                                 info.version + QLatin1Char(')')
                                           : info.version));
    std::printf("topology: %s\n", qPrintable(info.topologyName()));
    for (const QString &shard : info.shards)
        std::printf("shard: %s\n", qPrintable(shard));
    std::printf("hosts: %s\n", qPrintable(info.hosts));
    std::printf("wire version: %d\n", info.maxWireVersion);
    std::printf("$sample: %s\n", info.supportsSample ? "yes" : "no");
    std::printf("$bsonSize: %s\n", info.supportsBsonSize ? "yes" : "no");
    std::printf("transactions: %s\n", info.supportsTransactions ? "yes" : "no");
    for (const QString &note : info.notes)
        std::printf("note: %s\n", qPrintable(note));
    return ExitSuccess;
}
