#pragma once

#include "guard/GuardRule.h"
#include "remedy/RewriteConfig.h"
#include "shape/ShapeFlag.h"

#include <QString>

#include <optional>
#include <vector>

namespace oe {

struct AnalysisResult;

// A schema outlier the wizard cures with something other than the split, and its remedies by
// the outlier's kind: a big scalar is extracted to a side collection (or stored in GridFS),
// keys used as data become an array of {k, v}, a mixed type gets a type guard (and, where it
// converts exactly, an optional conversion). A value type.
struct WizardRemedy
{
    ShapeFlag flag;
    std::optional<RewriteConfig> rewrite; // the suggested rewrite (its kind the first remedy)
    std::optional<GuardRule> typeRule;    // a mixed type's guard

    // The shape flags of `result` that have a remedy, in the Shape tab's order.
    static std::vector<WizardRemedy> candidates(const AnalysisResult &result);
    // "Extract to a side collection or store in GridFS", "Keys to an array", "Type guard".
    QString name() const;
    // The outlier in a few words: "big scalar", "keys used as data", "mixed types".
    QString outlierName() const;
};

} // namespace oe
