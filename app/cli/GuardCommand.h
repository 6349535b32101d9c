#pragma once

#include <QStringList>

// `guard`: the guardrail validator of a split collection (core's GuardSession): shows the exact
// collMod and the documents that already break it, applies it (--action warn, then error), or
// removes it (--remove: the previous validator, level and action back, byte for byte).
class GuardCommand
{
public:
    static int run(const QStringList &arguments);
};
