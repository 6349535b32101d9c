#pragma once

#include "mongo/ConnectionSettings.h"

#include <QCommandLineParser>

// The connection options every live command shares: --uri and the TLS switches.
namespace cli {

void addConnectionOptions(QCommandLineParser &parser);
// --db and --collection, for commands that read or write one collection.
void addNamespaceOptions(QCommandLineParser &parser);
// Fills `settings` from the parsed options; prints a one-line usage error and returns false
// when they are invalid (the URI is checked by libmongoc, and redacted in any message).
bool connectionSettings(const QCommandLineParser &parser, oe::ConnectionSettings *settings);
// The database a --uri command works on: --db, else the URI's own (its path); empty if neither.
QString databaseOf(const QCommandLineParser &parser, const oe::ConnectionSettings &settings);
// Checks a database and a collection name (each optional: empty is not checked) by MongoDB's
// rules; prints a one-line usage error naming the option and returns false when one breaks them.
bool namespaceNames(const QString &database, const QString &collection,
                    const QString &collectionOption = QStringLiteral("--collection"));

// One live collection a command works on: --uri, --db (or the URI's) and --collection, each
// checked; false after a usage line naming `command`.
struct LiveCollection
{
    oe::ConnectionSettings settings;
    QString database, collection;
};
bool liveCollection(const QCommandLineParser &parser, const QString &command,
                    LiveCollection *target);

} // namespace cli
