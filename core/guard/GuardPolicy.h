#pragma once

#include "guard/ValidationSettings.h"

#include <QString>
#include <QStringList>

#include <cstdint>

namespace oe {

// What the guard does when a write breaks it: warn (the server logs the violation and takes
// the write) or error (the server refuses the write).
enum class GuardAction
{
    Warn,
    Error
};
QString guardActionName(GuardAction action); // "warn", "error"

// What the user asks of the guard: its action, and its level (moderate, the least it needs:
// documents already over it are left alone; or strict).
struct GuardRequest
{
    GuardAction action = GuardAction::Warn;
    ValidationLevel level = ValidationLevel::Moderate;
};

// Why a guard is not applied as asked.
enum class GuardBlock
{
    None,
    WarnWouldWeaken,       // the collection's own rule refuses writes: warn would let them in
    StrictRefusesOutliers, // the collection validates strictly: the unsplit outliers' updates
                           // would be refused, and the user has not said that is what they want
    UnknownSetting         // a level or action this version does not know
};

struct GuardDecision
{
    ValidationLevel level = ValidationLevel::Moderate;
    ValidationAction action = ValidationAction::Warn;
    GuardBlock block = GuardBlock::None;
    QString blockMessage; // one line, when blocked
    QStringList notes;    // what changes for the collection's own rule, said before applying
};

// Level and action belong to the whole validator, so the guard merged into a collection's
// validator takes the stronger of the collection's own and the requested: it never lowers
// either. Where that is not what was asked (warn on a collection that errors; strict kept while
// documents are still over the guard) it says so and blocks, never silently.
class GuardPolicy
{
public:
    static GuardDecision decide(const ValidationSettings &own, const GuardRequest &request,
                                std::int64_t conflicts, const QString &ns,
                                const QString &cure = QStringLiteral("split"));
};

} // namespace oe
