#pragma once

#include "explore/AnalysisResult.h"
#include "report/AnatomyReport.h"
#include "shape/ShapeOptions.h"
#include "shape/ShapeReport.h"

#include <QCommandLineParser>

// The shape analysis's options (--rare-share, --mixed-share, --big-scalar-bytes, --anatomy) and
// its line in the summary, shared by analyze and report.
namespace cli {

void addShapeOptions(QCommandLineParser &parser);
// Fills `options` from the options that are set; false after a one-line usage error.
bool shapeFrom(const QCommandLineParser &parser, oe::ShapeOptions *options);
// "shape: 2 rare fields, 1 mixed type, ..." (or why the shape was not measured).
void printShape(const oe::ShapeReport &report);
// With --anatomy N: anatomy.csv in `dir`, the size anatomy of the N largest outlier documents
// (read again: a dump once, a collection by their _ids), and a line saying where the largest's
// weight sits. The exit code.
int writeAnatomy(const QCommandLineParser &parser, const oe::AnalysisResult &result,
                 const QString &dir, bool quiet);
// The entries --anatomy N asks for (none without it); the exit code.
int readAnatomy(const QCommandLineParser &parser, const oe::AnalysisResult &result,
                std::vector<oe::AnatomyReport::Entry> *entries);

} // namespace cli
