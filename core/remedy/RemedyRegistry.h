#pragma once

#include "remedy/Remedy.h"

#include <QString>

#include <vector>

namespace oe {

// Every remedy the product has, one line each (RemedyRegistry.cpp), in the order the dialogs
// and the CLI's help list them. Adding a remedy: its folder under core/remedy, one line here
// and its tests (core/ARCHITECTURE.md walks through it).
class RemedyRegistry
{
public:
    static const std::vector<const Remedy *> &all();
    static const Remedy &of(RewriteKind kind);
    // By the journal's word ("extract"), or the CLI's option ("convert-to"); nullptr: none.
    static const Remedy *named(const QString &name);
    static const Remedy *byCliOption(const QString &option);
    // The remedies curing a shape flag's kind, the one to suggest first.
    static std::vector<const Remedy *> curing(ShapeFlag::Kind kind);
};

} // namespace oe
