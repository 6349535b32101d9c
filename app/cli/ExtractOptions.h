#pragma once

#include "remedy/RewriteConfig.h"

#include <QCommandLineParser>

// An extraction's options, shared by rewrite (--extract, --gridfs) and codegen --extract:
// --side, --flag, --min-bytes, --excerpt-chars, --excerpt-keys, --bucket, --strings.
namespace cli {

void addExtractOptions(QCommandLineParser &parser);
// Fills `config` from them; false after a one-line usage error (a count that is not one).
bool extractFrom(const QCommandLineParser &parser, oe::RewriteConfig *config);

} // namespace cli
