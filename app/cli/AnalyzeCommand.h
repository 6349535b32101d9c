#pragma once

#include "explore/AnalysisResult.h"

#include <QCommandLineParser>
#include <QStringList>

#include <functional>

// `outlier-explorer-cli analyze`: scan a dump, detect outliers, write the CSV reports. The
// same analysis feeds `report`, which writes one shareable file instead.
class AnalyzeCommand
{
public:
    static int run(const QStringList &arguments);

    // `report`: the analysis options plus `addOptions`' own; after the analysis `write` makes
    // the output (--out is then a file) and returns the exit code.
    using Writer = std::function<int(const QCommandLineParser &, const oe::AnalysisResult &)>;
    static int runForReport(const QStringList &arguments,
                            const std::function<void(QCommandLineParser &)> &addOptions,
                            const Writer &write);
};
