#pragma once

#include <QStringList>

// `outlier-explorer-cli report`: the analysis of `analyze`, written as one shareable HTML or
// PDF file with the charts drawn by the desktop app's own chart widget (offscreen).
namespace ReportCommand {
int run(const QStringList &arguments);
}
