#pragma once

#include <QStringList>

// `outlier-explorer-cli analyze`: scan a dump, detect outliers, write the CSV reports.
class AnalyzeCommand
{
public:
    static int run(const QStringList &arguments);
};
