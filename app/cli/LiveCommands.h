#pragma once

#include <QStringList>

// The live-cluster commands: `list`, `import`, `test-connection`.
class LiveCommands
{
public:
    static int list(const QStringList &arguments);
    static int import(const QStringList &arguments);
    static int testConnection(const QStringList &arguments);
};
