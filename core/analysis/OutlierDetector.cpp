#include "analysis/OutlierDetector.h"

#include "analysis/ThresholdPreset.h"
#include "bson/DocumentId.h"

#include <QLocale>

#include <algorithm>
#include <set>

namespace oe {

namespace {

QString bytesText(std::uint64_t bytes)
{
    return QLocale::c().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeIecFormat);
}

OutlierRow rowFor(const TailCandidate &c, const QString &reason, const QString &detail)
{
    OutlierRow row;
    row.id = DocumentId::toRelaxedJson(c.rawId);
    row.rawId = c.rawId;
    row.docIndex = c.docIndex;
    row.bsonSize = c.docSize;
    row.reason = reason;
    row.detail = detail;
    return row;
}

// The sketch answers a percentile within 0.5%; when the nearest-rank position lies inside
// a tail that holds the largest values exactly, read the exact value there instead, so
// "above p99.9" flags exactly the documents ranked above it.
StatisticalThreshold derive(const Distribution &d, const CandidateTail &tail, bool tailMatches,
                            const DetectionOptions &options)
{
    StatisticalThreshold t = StatisticalThreshold::derive(d, options.method, options.parameters);
    if (options.method != OutlierMethod::Percentile || !tailMatches || d.count() == 0)
        return t;
    const double q = std::clamp(options.parameters.percentile, 0.0, 100.0) / 100.0;
    const std::uint64_t after = d.count() - QuantileSketch::nearestRank(q, d.count());
    const auto largest = tail.largest(std::size_t(after) + 1);
    if (largest.size() != after + 1)
        return t;
    const std::uint64_t exact = largest.back().value;
    if (exact == 0 || !tail.isCompleteAbove(exact - 1))
        return t;
    t.value = exact;
    t.rule =
        QStringLiteral("above the p%1 (%2, exact)").arg(options.parameters.percentile).arg(exact);
    return t;
}

} // namespace

void OutlierDetector::prepareScan(const DetectionOptions &options,
                                  std::uint64_t &keepDocumentsLargerThan,
                                  std::uint64_t &keepArraysLongerThan)
{
    keepDocumentsLargerThan = ThresholdPreset::kMaxBsonBytes / 2;
    if (auto s = options.sizeThresholdBeforeScan())
        keepDocumentsLargerThan = std::min(keepDocumentsLargerThan, *s);
    keepArraysLongerThan = CandidateTail::kNoThreshold;
    if (auto a = options.arrayThresholdBeforeScan())
        keepArraysLongerThan = *a;
}

namespace {

// Documents larger than the size threshold, and those over half (or over all) of 16 MiB.
void detectBySize(const CollectionProfile &profile, const DetectionOptions &options,
                  const QString &method, OutlierReport *report)
{
    QString sizeReason;
    if (auto fixed = options.sizeThresholdBeforeScan()) {
        report->size.value = *fixed;
        report->size.rule = options.sizeThreshold
                                ? QStringLiteral("larger than %1 bytes (given)").arg(*fixed)
                                : QStringLiteral("larger than %1 bytes (%2)")
                                      .arg(*fixed)
                                      .arg(options.preset.description);
        sizeReason = QStringLiteral("size_absolute");
    } else {
        const auto t = derive(profile.sizes, profile.largestDocuments, true, options);
        report->size = {t.value, QStringLiteral("size ") + t.rule};
        sizeReason = QStringLiteral("size_") + method;
    }
    if (profile.documents > 0) {
        for (const auto &c : profile.largestDocuments.above(report->size.value)) {
            report->rows.push_back(rowFor(
                c, sizeReason,
                QStringLiteral("%1 > %2 (%3)")
                    .arg(bytesText(c.value), bytesText(report->size.value), report->size.rule)));
            ++report->sizeOutliers;
        }
        if (!profile.largestDocuments.isCompleteAbove(report->size.value))
            report->warnings << QStringLiteral(
                                    "size outliers: only the %1 largest documents were kept; "
                                    "more documents exceed the threshold")
                                    .arg(profile.largestDocuments.capacity());
        const std::uint64_t half = ThresholdPreset::kMaxBsonBytes / 2;
        for (const auto &c : profile.largestDocuments.above(half)) {
            const bool over = c.value > ThresholdPreset::kMaxBsonBytes;
            report->rows.push_back(rowFor(
                c,
                over ? QStringLiteral("size_over_limit") : QStringLiteral("size_over_half_limit"),
                over ? QStringLiteral("%1 exceeds MongoDB's 16 MiB document limit")
                           .arg(bytesText(c.value))
                     : QStringLiteral("%1 is over half of MongoDB's 16 MiB document limit")
                           .arg(bytesText(c.value))));
        }
    }
}

// Documents with any array longer than one threshold for all paths (known before the scan).
void detectByArrayLength(const CollectionProfile &profile, const DetectionOptions &options,
                         std::uint64_t fixed, OutlierReport *report)
{
    report->arrayThresholdIsGlobal = true;
    report->array.value = fixed;
    report->array.rule = options.arrayThreshold
                             ? QStringLiteral("an array longer than %1 (given)").arg(fixed)
                             : QStringLiteral("an array longer than %1 (%2)")
                                   .arg(fixed)
                                   .arg(options.preset.description);
    for (const auto &c : profile.longestArrays.above(fixed)) {
        OutlierRow row = rowFor(c, QStringLiteral("array_absolute"),
                                QStringLiteral("%1 elements > %2").arg(c.value).arg(fixed));
        row.path = QString::fromStdString(c.path);
        row.arrayLength = c.value;
        report->rows.push_back(row);
        ++report->arrayOutliers;
    }
    if (!profile.longestArrays.isCompleteAbove(report->array.value))
        report->warnings << QStringLiteral("array outliers: only the %1 longest were kept")
                                .arg(profile.longestArrays.capacity());
}

// Per path: each array path has its own distribution and threshold; a document is listed once,
// for its longest violating array.
void detectByArrayLengthPerPath(const CollectionProfile &profile, const DetectionOptions &options,
                                const QString &method, OutlierReport *report)
{
    std::map<std::uint64_t, std::pair<OutlierRow, std::uint64_t>> byDocument;
    for (const auto &f : profile.fields) {
        if (f.arrays == 0)
            continue;
        const auto t = derive(f.lengths, f.longestPerDocument,
                              !f.insideArray && f.arrays == f.presentDocuments, options);
        report->arrayPerPath[f.path] = {t.value, t.rule};
        for (const auto &c : f.longestPerDocument.above(t.value)) {
            auto it = byDocument.find(c.docIndex);
            if (it != byDocument.end() && it->second.second >= c.value)
                continue;
            OutlierRow row = rowFor(c, QStringLiteral("array_") + method,
                                    QStringLiteral("%1 elements at %2, %3")
                                        .arg(c.value)
                                        .arg(QString::fromStdString(f.path), t.rule));
            row.path = QString::fromStdString(f.path);
            row.arrayLength = c.value;
            byDocument[c.docIndex] = {row, c.value};
        }
        if (!f.longestPerDocument.isCompleteAbove(t.value))
            report->warnings << QStringLiteral(
                                    "array outliers at %1: only the %2 longest were kept")
                                    .arg(QString::fromStdString(f.path))
                                    .arg(f.longestPerDocument.capacity());
    }
    std::vector<OutlierRow> arrayRows;
    for (auto &[index, entry] : byDocument)
        arrayRows.push_back(entry.first);
    std::stable_sort(arrayRows.begin(), arrayRows.end(),
                     [](const OutlierRow &a, const OutlierRow &b) {
                         return a.arrayLength != b.arrayLength ? a.arrayLength > b.arrayLength
                                                               : a.docIndex < b.docIndex;
                     });
    report->arrayOutliers = arrayRows.size();
    report->rows.insert(report->rows.end(), arrayRows.begin(), arrayRows.end());
}

} // namespace

OutlierReport OutlierDetector::detect(const CollectionProfile &profile,
                                      const DetectionOptions &options)
{
    OutlierReport report;
    const QString method = methodName(options.method);
    detectBySize(profile, options, method, &report);
    if (auto fixed = options.arrayThresholdBeforeScan())
        detectByArrayLength(profile, options, *fixed, &report);
    else
        detectByArrayLengthPerPath(profile, options, method, &report);
    std::set<std::uint64_t> distinct;
    for (const auto &r : report.rows)
        distinct.insert(r.docIndex);
    report.outlierDocuments = distinct.size();
    return report;
}

} // namespace oe
