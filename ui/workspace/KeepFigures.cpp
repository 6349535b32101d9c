#include "workspace/KeepFigures.h"

#include "analysis/ThresholdImpact.h"
#include "charts/Format.h"
#include "workspace/SourceState.h"

#include <QCoreApplication>

namespace oe {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("KeepFigures", text);
}

// The state's plan, when it is the split of `path` keeping `keep`.
const SplitPlan *planFor(const SourceState &state, const QString &path, std::uint64_t keep)
{
    if (!state.planIsCurrent() || state.plan().error.isError() || state.path() != path ||
        state.keep() != keep)
        return nullptr;
    return &state.plan();
}

} // namespace

QString KeepFigures::bytesMoved(const SourceState &state, const QString &path, std::uint64_t keep)
{
    if (const SplitPlan *plan = planFor(state, path, keep))
        return Format::bytes(plan->bytesMoved);
    const FieldProfile *field = state.analysis().profile.field(path.toStdString());
    if (!field)
        return {};
    return QStringLiteral("≈ ") +
           Format::bytes(
               ThresholdImpact::forArray(state.analysis().profile, *field, keep).bytesMoved);
}

QString KeepFigures::counters(const SourceState &state)
{
    const AnalysisResult &result = state.analysis();
    const std::string path = state.path().toStdString();
    const FieldProfile *field = result.profile.field(path);
    const SplitRecommendation *rec = result.recommendationFor(path);
    if (!field || !rec || !rec->splittable)
        return {};
    const std::uint64_t keep = state.keep();
    const QString bytes = bytesMoved(state, state.path(), keep);
    if (const SplitPlan *plan = planFor(state, state.path(), keep)) {
        const double share =
            plan->documents ? double(plan->affected) / double(plan->documents) : 0.0;
        if (plan->affected == 0)
            return tr("0 documents over %1: no array here is longer (the longest has %2), "
                      "nothing would split")
                .arg(Format::count(keep), Format::count(field->lengths.max()));
        return tr("%1 documents over %2 (%3) · %4 elements would move (%5) · largest "
                  "primary after %6")
            .arg(Format::count(plan->affected), Format::count(keep), Format::percent(share, 2),
                 Format::count(plan->elementsMoved), bytes,
                 Format::bytes(plan->largestPrimaryAfter));
    }
    const ThresholdImpact impact = ThresholdImpact::forArray(result.profile, *field, keep);
    const QString about = impact.exact ? QString() : tr("about ");
    return tr("%1%2 documents over %3 (%4) · %5%6 elements would move (%7) · largest primary "
              "after (computing…)")
        .arg(about, Format::count(impact.documentsOver), Format::count(keep),
             Format::percent(impact.share, 2), about, Format::count(impact.elementsMoved), bytes);
}

} // namespace oe
