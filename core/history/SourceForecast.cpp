#include "history/SourceForecast.h"

#include "history/HistoryStore.h"

#include <algorithm>
#include <functional>
#include <map>

namespace oe {

SourceForecast SourceForecast::of(const HistoryStore &store, const std::vector<HistoryRun> &runs,
                                  double thresholdBytes)
{
    SourceForecast out;
    if (runs.empty()) {
        out.largest = GrowthForecast::fit({}, thresholdBytes);
        return out;
    }
    out.sourceKey = runs.back().sourceKey;
    std::vector<std::pair<QDateTime, double>> largest;
    std::map<QString, std::vector<std::pair<QDateTime, double>>> documents;
    for (const HistoryRun &r : runs) {
        largest.emplace_back(r.at, double(r.sizeMax));
        for (const HistoryOutlier &o : store.outliers(r.id))
            if (o.kind == QLatin1String("size"))
                documents[o.id].emplace_back(r.at, double(o.bytes));
    }
    out.largest = GrowthForecast::fit(largest, thresholdBytes);
    std::vector<std::pair<double, QString>> latest;
    for (const auto &[id, points] : documents)
        if (points.size() >= 2 && points.back().first == runs.back().at)
            latest.emplace_back(points.back().second, id);
    std::sort(latest.begin(), latest.end(), std::greater<>());
    for (std::size_t i = 0; i < latest.size() && i < kDocuments; ++i)
        out.documents.emplace_back(
            latest[i].second, GrowthForecast::fit(documents[latest[i].second], thresholdBytes));
    return out;
}

QStringList SourceForecast::linesFor(const SourceRef &source, double thresholdBytes,
                                     const QString &historyPath)
{
    const HistoryStore store(historyPath.isEmpty() ? HistoryStore::defaultPath() : historyPath);
    if (!store.isOpen())
        return {QStringLiteral("no forecast: %1").arg(store.error())};
    const std::vector<HistoryRun> runs = store.runs(HistoryStore::sourceKeyOf(source));
    return of(store, runs, thresholdBytes).lines(runs.size());
}

QStringList SourceForecast::lines(std::size_t runs) const
{
    if (!largest.valid)
        return {QStringLiteral("no forecast yet: the analysis history holds %1 analysis(es) of "
                               "this source; one more, later, gives one")
                    .arg(runs)};
    QStringList out{QStringLiteral("largest document: %1").arg(largest.summary())};
    for (const auto &[id, forecast] : documents) {
        QString shown = id;
        if (shown.size() > 200) { // a megabyte _id stays a line
            qsizetype cut = 160;
            if (shown.at(cut - 1).isHighSurrogate())
                --cut;
            shown = shown.left(cut) + QStringLiteral("… (%1 characters)").arg(id.size());
        }
        out << QStringLiteral("_id %1: %2").arg(shown, forecast.summary());
    }
    return out;
}

} // namespace oe
