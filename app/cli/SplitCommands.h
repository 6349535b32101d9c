#pragma once

#include <QStringList>

// `split`, `verify` and `rollback`: the outlier-pattern migration, live or on dump files.
class SplitCommands
{
public:
    enum class Action
    {
        Split,
        Verify,
        Rollback
    };
    static int run(Action action, const QStringList &arguments);
};
