#include "analysis/SplitRecommendation.h"

#include "analysis/PathSegment.h"

#include "analysis/ThresholdImpact.h"
#include "stats/StatisticalThreshold.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace oe {

namespace {
std::string arrayAncestor(const CollectionProfile &profile, const std::string &path)
{
    std::string::size_type dot = path.find('.');
    while (dot != std::string::npos) {
        const std::string prefix = path.substr(0, dot);
        if (const FieldProfile *f = profile.field(prefix); f && f->arrays > 0)
            return prefix;
        dot = path.find('.', dot + 1);
    }
    return {};
}

} // namespace

std::vector<SplitRecommendation> SplitRecommendation::recommend(const CollectionProfile &profile,
                                                                std::uint64_t targetPrimaryBytes,
                                                                double fenceK)
{
    const QLocale c = QLocale::c();
    std::vector<SplitRecommendation> result;
    for (const FieldProfile &f : profile.fields) {
        if (f.arrays == 0 || f.lengths.max() == 0)
            continue;
        SplitRecommendation r;
        r.path = f.path;
        r.meanElementBytes = f.meanElementBytes();
        const auto fence = StatisticalThreshold::tukeyLogFence(f.lengths, fenceK);
        r.fenceKeep = std::max<std::uint64_t>(1, fence.value);
        r.targetKeep = r.meanElementBytes > 0
                           ? std::max<std::uint64_t>(
                                 1, std::uint64_t(double(targetPrimaryBytes) / r.meanElementBytes))
                           : r.fenceKeep;
        r.keep = std::min(r.fenceKeep, r.targetKeep);
        const QString path = QString::fromStdString(f.path);

        if (PathSegment::throughManyKeys(f.path)) {
            r.splittable = false;
            r.explanation = QStringLiteral("%1 lies under keys that differ from document to "
                                           "document (\"<key>\": keys used as data; \"*\": keys "
                                           "past 1,000): no one path names these arrays.")
                                .arg(path);
            result.push_back(r);
            continue;
        }
        if (f.insideArray) {
            r.splittable = false;
            const std::string outer = arrayAncestor(profile, f.path);
            r.explanation =
                QStringLiteral("%1 lies inside the array %2: the overflow split moves one "
                               "array per document (top level or in sub-documents), not "
                               "arrays inside arrays; consider splitting %2 instead.")
                    .arg(path, outer.empty() ? QStringLiteral("above it")
                                             : QString::fromStdString(outer));
            result.push_back(r);
            continue;
        }

        const ThresholdImpact impact = ThresholdImpact::forArray(profile, f, r.keep);
        r.documentsOver = impact.documentsOver;
        r.elementsMoved = impact.elementsMoved;
        r.estimated = !impact.exact;
        const QString why = r.fenceKeep <= r.targetKeep
                                ? QStringLiteral("the distribution's fence is the tighter bound")
                                : QStringLiteral("the target primary size is the tighter bound");
        r.explanation =
            QStringLiteral(
                "Keep %1 elements of %2 in the primary. From the distribution: Tukey's fence "
                "on log scale is %3 (Q1 %4, Q3 %5, max %6). From size: at %7 B per element "
                "a %8 primary holds %9 elements. Recommended the smaller (%10). %11%12 "
                "document(s) exceed it; %13 element(s) would move to the overflow collection.")
                .arg(c.toString(qulonglong(r.keep)), path, c.toString(qulonglong(r.fenceKeep)))
                .arg(c.toString(qulonglong(f.lengths.quantile(0.25))),
                     c.toString(qulonglong(f.lengths.quantile(0.75))),
                     c.toString(qulonglong(f.lengths.max())))
                .arg(QString::number(r.meanElementBytes, 'f', 1),
                     c.formattedDataSize(qint64(targetPrimaryBytes), 0, QLocale::DataSizeIecFormat),
                     c.toString(qulonglong(r.targetKeep)), why,
                     r.estimated ? QStringLiteral("About ") : QString(),
                     c.toString(qulonglong(r.documentsOver)),
                     c.toString(qulonglong(r.elementsMoved)));
        result.push_back(r);
    }
    return result;
}

} // namespace oe
