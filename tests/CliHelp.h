#pragma once

#include <QString>
#include <QStringList>

// Reading the CLI's own --help texts, as the man page and the documents are checked against
// them (tst_package, tst_docs).
namespace fixtures {

// The commands a top-level --help lists ("commands:", one a line, up to a blank line).
QStringList commandsOf(const QString &usage);
// The long options a command's --help lists ("  -h, --help", "  --dump <FILE>").
QStringList longOptionsOf(const QString &help);

} // namespace fixtures
