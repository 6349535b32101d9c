#pragma once

#include "shape/ShapeOptions.h"
#include "shape/ShapeReport.h"

#include <QCommandLineParser>

// The shape analysis's options (--rare-share, --mixed-share, --big-scalar-bytes) and its line
// in the summary, shared by analyze and report.
namespace cli {

void addShapeOptions(QCommandLineParser &parser);
// Fills `options` from the options that are set; false after a one-line usage error.
bool shapeFrom(const QCommandLineParser &parser, oe::ShapeOptions *options);
// "shape: 2 rare fields, 1 mixed type, ..." (or why the shape was not measured).
void printShape(const oe::ShapeReport &report);

} // namespace cli
