#pragma once

#include <QStringList>

// `outlier-explorer-cli demo-data`: write the deterministic demo datasets.
class DemoDataCommand
{
public:
    static int run(const QStringList &arguments);
};
