#pragma once

#include "explore/AnalysisResult.h"
#include "export/ReportOptions.h"

#include <QString>

class QCoreApplication;

namespace oe::reportplugin {

// The shareable report's renderer as a plugin: its charts are QCustomPlot widgets, so it needs
// QtWidgets, which the CLI does not link. The CLI's `report` loads it from
// <prefix>/lib/outlier-explorer/plugins/ (beside <prefix>/bin/, in the build tree and installed
// alike) and reaches it through these C functions; the desktop app links oereport directly.
inline constexpr const char *kRelativePath = "../lib/outlier-explorer/plugins/liboe-report.so";

// "oe_report_version": the version the plugin was built as (it must be the CLI's own).
using VersionFunction = const char *(*)();
// "oe_report_application": the widget application the charts need (QApplication).
using ApplicationFunction = QCoreApplication *(*)(int *argc, char **argv);
// "oe_report_write": renders `result` as the .html or .pdf file `out` (staged and renamed);
// false with `error` set when it could not.
using WriteFunction = bool (*)(const AnalysisResult &result, const ReportOptions &options,
                               const QString &out, QString *error);

} // namespace oe::reportplugin
