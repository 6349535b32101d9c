#pragma once

#include "analysis/SourceRef.h"
#include "history/GrowthForecast.h"
#include "history/HistoryRun.h"

#include <QString>
#include <QStringList>

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
    // The forecast in lines: "largest document: …", then "_id X: …" (a long _id shortened to
    // its first 160 characters and its length); one line saying why when there is none.
    QStringList lines(std::size_t runs) const;
    // `source`'s forecast from the history at `historyPath` (empty: the default one), in lines:
    // the largest document's, then each document's; one line saying why when there is none.
    static QStringList linesFor(const SourceRef &source, double thresholdBytes,
                                const QString &historyPath = {});
};

} // namespace oe
