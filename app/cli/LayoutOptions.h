#pragma once

#include "split/SplitConfig.h"

#include <QCommandLineParser>

// The split layout's options, shared by split/verify/rollback and codegen: --field, --keep,
// --page-size and the names of the overflow collection and its fields.
namespace cli {

void addLayoutOptions(QCommandLineParser &parser);
// Fills `config` from the options that are set (the rest stay as they are); false after a
// one-line usage error (a number that is not one).
bool layoutFrom(const QCommandLineParser &parser, oe::SplitConfig *config);

} // namespace cli
