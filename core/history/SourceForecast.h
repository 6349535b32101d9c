#pragma once

#include "history/GrowthForecast.h"
#include "history/HistoryRun.h"

#include <QString>

#include <vector>

namespace oe {

class HistoryStore;

// The forecast of one source from its runs in the history: its largest document's growth, and
// that of the largest documents of the last run that earlier runs saw too (matched by _id),
// largest first. What `history --forecast`, Trends, the Overview and the report say.
struct SourceForecast
{
    static constexpr std::size_t kDocuments = 5;

    QString sourceKey;
    GrowthForecast largest;
    std::vector<std::pair<QString, GrowthForecast>> documents; // _id (relaxed JSON), forecast

    // `runs`: one source's, oldest first (HistoryStore::runs(key)).
    static SourceForecast of(const HistoryStore &store, const std::vector<HistoryRun> &runs,
                             double thresholdBytes);
};

} // namespace oe
