#pragma once

#include <QString>
#include <QStringList>

class ReportRenderer;

// `outlier-explorer-cli report`: the analysis of `analyze`, written as one shareable HTML or
// PDF file with the charts drawn by the desktop app's own chart widget (offscreen), through
// the report plugin (`renderer`; null when it could not be loaded, `rendererError` says why:
// --help and usage errors still answer, writing fails with that line).
namespace ReportCommand {
int run(const QStringList &arguments, const ReportRenderer *renderer, const QString &rendererError);
}
