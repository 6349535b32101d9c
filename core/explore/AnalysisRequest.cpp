#include "explore/AnalysisRequest.h"

namespace oe {

QStringList AnalysisRequest::problems() const
{
    QStringList out;
    if (parallelRanges < 0)
        out << QStringLiteral("--parallel must be at least 1, got %1").arg(parallelRanges);
    if (parallelRanges > 0 && selection.mode != DocumentSelection::Mode::Full)
        out << QStringLiteral("--parallel reads every document: it goes with --full, not --sample "
                              "or --limit");
    if (resume && parallelRanges <= 0)
        out << QStringLiteral("--resume continues a --parallel scan: give the same --parallel N "
                              "as the interrupted run");
    return out;
}

} // namespace oe
