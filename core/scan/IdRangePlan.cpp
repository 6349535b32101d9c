#include "scan/IdRangePlan.h"

#include "bson/IdOrder.h"

#include <QLocale>

#include <algorithm>
#include <map>

namespace oe {

namespace {

int typeOf(const QByteArray &raw)
{
    return raw.isEmpty() ? 0 : int(std::uint8_t(raw[0]));
}

QString typeClassName(int rank)
{
    switch (rank) {
    case 10:
        return QStringLiteral("number");
    case 15:
        return QStringLiteral("string");
    case 35:
        return QStringLiteral("ObjectId");
    case 45:
        return QStringLiteral("date");
    default:
        return QStringLiteral("type rank %1").arg(rank);
    }
}

// `count` - 1 cut points at even steps through `sorted` (distinct values kept once).
std::vector<QByteArray> evenCuts(const std::vector<QByteArray> &sorted, int count)
{
    std::vector<QByteArray> cuts;
    const std::size_t n = sorted.size();
    for (int i = 1; i < count && n > 0; ++i) {
        const QByteArray &b = sorted[std::size_t(std::uint64_t(i) * n / std::uint64_t(count))];
        if (IdOrder::compare(b, sorted.front()) > 0 &&
            (cuts.empty() || IdOrder::compare(b, cuts.back()) > 0))
            cuts.push_back(b);
    }
    return cuts;
}

void sortIds(std::vector<QByteArray> &ids)
{
    std::sort(ids.begin(), ids.end(),
              [](const QByteArray &a, const QByteArray &b) { return IdOrder::compare(a, b) < 0; });
}

} // namespace

int IdRangePlan::cutTypeRank() const
{
    return isWhole() ? -1 : IdOrder::typeRank(typeOf(pivot));
}

QString IdRangePlan::describe() const
{
    if (isWhole())
        return QStringLiteral("one range (no ObjectId, number, string or date _id to cut at)");
    QString from;
    switch (origin) {
    case Origin::ShardChunks:
        from = QStringLiteral("the shard chunks' boundaries");
        break;
    case Origin::ServerSample:
        from = QStringLiteral("quantiles of %1 _ids sampled by $sample")
                   .arg(QLocale::c().toString(qulonglong(sampled)));
        break;
    case Origin::ReservoirSample:
        from = QStringLiteral("quantiles of %1 _ids sampled by a reservoir (no $sample)")
                   .arg(QLocale::c().toString(qulonglong(sampled)));
        break;
    case Origin::FirstId:
        from = QStringLiteral("the first document's _id type");
        break;
    case Origin::Whole:
        break;
    }
    return QStringLiteral("%1 %2 of %3 _ids from %4, and one for _ids of other types")
        .arg(typedRanges())
        .arg(typedRanges() == 1 ? QStringLiteral("range") : QStringLiteral("ranges"),
             typeClassName(cutTypeRank()), from);
}

IdRangePlan IdRangePlan::fromSample(std::vector<QByteArray> ids, int ranges, Origin origin)
{
    IdRangePlan plan;
    plan.origin = origin;
    plan.sampled = ids.size();
    std::map<int, std::size_t> perRank;
    for (const QByteArray &id : ids)
        if (IdOrder::cuttable(typeOf(id)))
            ++perRank[IdOrder::typeRank(typeOf(id))];
    if (perRank.empty()) {
        plan.origin = Origin::Whole;
        return plan;
    }
    const int rank = std::max_element(perRank.begin(), perRank.end(), [](auto &a, auto &b) {
                         return a.second < b.second;
                     })->first;
    std::erase_if(ids, [&](const QByteArray &id) {
        return !IdOrder::cuttable(typeOf(id)) || IdOrder::typeRank(typeOf(id)) != rank;
    });
    sortIds(ids);
    plan.pivot = ids[ids.size() / 2];
    plan.boundaries = evenCuts(ids, std::max(1, ranges));
    return plan;
}

IdRangePlan IdRangePlan::fromChunkBounds(std::vector<QByteArray> lowerBounds, int ranges)
{
    std::vector<QByteArray> sorted = std::move(lowerBounds);
    std::erase_if(sorted, [](const QByteArray &b) { return !IdOrder::cuttable(typeOf(b)); });
    if (sorted.empty())
        return {};
    sortIds(sorted);
    // The chunks: (-inf, b0), [b0, b1) ...: n bounds make n + 1 chunks; cut between them.
    std::vector<QByteArray> withFirst;
    withFirst.reserve(sorted.size() + 1);
    withFirst.push_back(sorted.front()); // stands for the chunk below the first bound
    withFirst.insert(withFirst.end(), sorted.begin(), sorted.end());
    IdRangePlan plan;
    plan.origin = Origin::ShardChunks;
    plan.sampled = sorted.size() + 1;
    plan.pivot = sorted.front();
    plan.boundaries = evenCuts(withFirst, std::max(1, ranges));
    if (plan.boundaries.empty() && ranges > 1)
        plan.boundaries.push_back(sorted.front());
    return plan;
}

} // namespace oe
