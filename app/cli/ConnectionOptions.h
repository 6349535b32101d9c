#pragma once

#include "ConnectionSettings.h"

#include <QCommandLineParser>

// The connection options every live command shares: --uri and the TLS switches.
namespace cli {

void addConnectionOptions(QCommandLineParser &parser);
// --db and --collection, for commands that read or write one collection.
void addNamespaceOptions(QCommandLineParser &parser);
// Fills `settings` from the parsed options; prints a one-line usage error and returns false
// when they are invalid (the URI is checked by libmongoc, and redacted in any message).
bool connectionSettings(const QCommandLineParser &parser, oe::ConnectionSettings *settings);

} // namespace cli
