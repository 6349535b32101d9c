#include "guard/GuardPolicy.h"

#include <algorithm>

namespace oe {

namespace {

ValidationAction actionOf(GuardAction action)
{
    return action == GuardAction::Error ? ValidationAction::Error : ValidationAction::Warn;
}

bool refuses(ValidationAction action)
{
    return action == ValidationAction::Error || action == ValidationAction::ErrorAndLog;
}

QString documents(std::int64_t count)
{
    return count == 1 ? QStringLiteral("1 document") : QStringLiteral("%1 documents").arg(count);
}

// The guard alone (no rule of the collection's to keep): what was asked.
GuardDecision asAsked(const GuardRequest &request, std::int64_t conflicts, const QString &cure)
{
    GuardDecision out;
    out.level = request.level;
    out.action = actionOf(request.action);
    if (out.level == ValidationLevel::Strict && conflicts > 0)
        out.notes << QStringLiteral("validationLevel strict: updates to the %1 over the guard "
                                    "are %2 until they are %3")
                         .arg(documents(conflicts),
                              refuses(out.action) ? QStringLiteral("refused")
                                                  : QStringLiteral("logged as violations"),
                              cure);
    return out;
}

} // namespace

QString guardActionName(GuardAction action)
{
    return action == GuardAction::Error ? QStringLiteral("error") : QStringLiteral("warn");
}

GuardDecision GuardPolicy::decide(const ValidationSettings &own, const GuardRequest &request,
                                  std::int64_t conflicts, const QString &ns, const QString &cure)
{
    if (!own.hasRule())
        return asAsked(request, conflicts, cure);
    GuardDecision out;
    if (!own.isKnown()) {
        out.block = GuardBlock::UnknownSetting;
        out.blockMessage = QStringLiteral("%1 validates with validationLevel '%2' and "
                                          "validationAction '%3', which this version does not "
                                          "know: no guard is applied, so neither is lowered")
                               .arg(ns, own.levelWord, own.actionWord);
        return out;
    }
    out.level = std::max(own.level, request.level);
    // An unchecked rule's action never applied: the guard's own is the only one in force.
    out.action =
        own.enforces() ? std::max(own.action, actionOf(request.action)) : actionOf(request.action);
    if (own.enforces() && refuses(own.action) && request.action == GuardAction::Warn) {
        out.block = GuardBlock::WarnWouldWeaken;
        out.blockMessage =
            QStringLiteral("warn would weaken %1's own validator: it refuses writes "
                           "(validationAction %2), and the action applies to the whole "
                           "validator, so warn would let in writes its own rule refuses; "
                           "use error")
                .arg(ns, own.actionWord);
        return out;
    }
    if (own.level == ValidationLevel::Off)
        out.notes << QStringLiteral("the collection's own rule was not checked (validationLevel "
                                    "off); the level applies to the whole validator, so from "
                                    "now on it is checked too (%1)")
                         .arg(validationLevelName(out.level));
    if (own.enforces() && refuses(out.action) && !refuses(own.action))
        out.notes << QStringLiteral("the collection's own rule only warned (validationAction "
                                    "%1); the action applies to the whole validator, so from "
                                    "now on writes that break it are refused too")
                         .arg(own.actionWord);
    const bool strictIsTheCollections =
        out.level == ValidationLevel::Strict && request.level != ValidationLevel::Strict;
    if (strictIsTheCollections && conflicts > 0 && refuses(out.action)) {
        out.block = GuardBlock::StrictRefusesOutliers;
        out.blockMessage =
            QStringLiteral("%1 validates strictly (validationLevel strict, its own, which the "
                           "guard keeps): updates to the %2 already over the guard would be "
                           "refused until they are %3; do that first, or choose strict to "
                           "accept that")
                .arg(ns, documents(conflicts), cure);
        return out;
    }
    if (out.level == ValidationLevel::Strict && conflicts > 0)
        out.notes << QStringLiteral("validationLevel strict%1: updates to the %2 over the guard "
                                    "are %3 until they are %4")
                         .arg(strictIsTheCollections ? QStringLiteral(" (the collection's own)")
                                                     : QString(),
                              documents(conflicts),
                              refuses(out.action) ? QStringLiteral("refused")
                                                  : QStringLiteral("logged as violations"),
                              cure);
    return out;
}

} // namespace oe
