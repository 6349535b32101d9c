#include "shape/ShapeDetector.h"

#include "bson/BsonTypes.h"
#include "shape/SparseFamilyFinder.h"
#include "shape/VersionDetector.h"

#include <algorithm>

namespace oe {

namespace {

QString percent(std::uint64_t count, std::uint64_t total)
{
    const double p = total ? 100.0 * double(count) / double(total) : 0.0;
    return QStringLiteral("%1 %").arg(p, 0, 'g', p < 0.01 ? 2 : 4);
}

QString bytesText(std::uint64_t bytes)
{
    if (bytes >= 1024 * 1024)
        return QStringLiteral("%1 MiB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 2);
    if (bytes >= 1024)
        return QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 bytes").arg(bytes);
}

QString typeName(int slot)
{
    return BsonTypes::name(slot);
}

// "int 99.7 %, string 0.3 %": every type of the counts, most first.
QString mix(const TypeCounts &counts)
{
    QStringList parts;
    const std::uint64_t total = counts.total();
    for (int s : counts.byCount())
        parts << QStringLiteral("%1 %2").arg(typeName(s), percent(counts.n[std::size_t(s)], total));
    return parts.join(QStringLiteral(", "));
}

std::vector<ShapeFlag::Example> examplesOf(const FieldShape &shape, int slot, std::size_t count)
{
    std::vector<ShapeFlag::Example> out;
    for (const ShapeExample &e : shape.examplesOf(slot, count))
        out.push_back({e.rawId, e.docIndex});
    return out;
}

std::vector<ShapeFlag::Example> examplesOf(const CandidateTail &tail, std::size_t count)
{
    std::vector<ShapeFlag::Example> out;
    for (const TailCandidate &c : tail.largest(count))
        out.push_back({c.rawId, c.docIndex});
    return out;
}

std::string parentOf(const std::string &path)
{
    const auto dot = path.rfind('.');
    return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

struct Finder
{
    const CollectionProfile &profile;
    const ShapeOptions &options;
    ShapeReport &report;

    void rareField(const FieldProfile &f)
    {
        const std::uint64_t docs = profile.documents;
        auto rare = [&](std::uint64_t present) {
            return present > 0 && double(present) < options.rareShare * double(docs);
        };
        if (f.path == "_id" || !rare(f.presentDocuments))
            return;
        // Only the outermost rare path: what is inside a rare object is rare with it.
        const std::string parent = parentOf(f.path);
        if (const FieldProfile *p = parent.empty() ? nullptr : profile.field(parent);
            p && rare(p->presentDocuments))
            return;
        ShapeFlag flag =
            ShapeFlag::of(ShapeFlag::Kind::RareField, f.path, f.presentDocuments, docs);
        flag.detail = QStringLiteral("in %1 of %2 documents (%3)")
                          .arg(f.presentDocuments)
                          .arg(docs)
                          .arg(percent(f.presentDocuments, docs));
        flag.examples = examplesOf(f.shape, FieldShape::presenceSlot, options.examples);
        report.flags.push_back(std::move(flag));
    }

    void mixedTypes(const FieldProfile &f, const TypeCounts &counts, bool elements)
    {
        if (counts.kinds() < 2)
            return;
        const std::uint64_t total = counts.total();
        const int majority = counts.majority();
        for (int slot = 0; slot < TypeCounts::kSlots; ++slot) {
            const std::uint64_t n = counts.n[std::size_t(slot)];
            if (slot == majority || n == 0 || double(n) >= options.mixedShare * double(total))
                continue;
            ShapeFlag flag = ShapeFlag::of(elements ? ShapeFlag::Kind::MixedElementTypes
                                                    : ShapeFlag::Kind::MixedTypes,
                                           f.path, n, total);
            flag.type = typeName(slot);
            flag.detail =
                QStringLiteral("%1 in %2 of %3 %4 (%5)")
                    .arg(flag.type)
                    .arg(n)
                    .arg(total)
                    .arg(elements ? QStringLiteral("array elements") : QStringLiteral("values"))
                    .arg(mix(counts));
            flag.examples = examplesOf(f.shape, elements ? FieldShape::elementSlot(slot) : slot,
                                       options.examples);
            report.flags.push_back(std::move(flag));
        }
    }

    void keysAsData(const FieldProfile &f)
    {
        const FieldShape &s = f.shape;
        if (!s.keysAsData)
            return;
        ShapeFlag flag =
            ShapeFlag::of(ShapeFlag::Kind::KeysAsData, f.path, s.dataLikeKeys, s.distinctKeys);
        QString past;
        if (s.keysPastCap > 0)
            past = QStringLiteral(" (and %1 more keys past the cap of distinct keys, counted, "
                                  "not told apart)")
                       .arg(s.keysPastCap);
        flag.detail = QStringLiteral("%1 distinct keys%2, %3 shaped like data (numbers, dates, "
                                     "ids); keys per object: median %4, p99 %5, max %6; reported "
                                     "as %7.<key>")
                          .arg(s.distinctKeys)
                          .arg(past)
                          .arg(percent(s.dataLikeKeys, s.distinctKeys))
                          .arg(s.keyCounts.quantile(0.5))
                          .arg(s.keyCounts.quantile(0.99))
                          .arg(s.keyCounts.max())
                          .arg(QString::fromStdString(f.path));
        flag.examples = examplesOf(s.mostKeys, options.examples);
        report.flags.push_back(std::move(flag));
    }

    void bigScalar(const FieldProfile &f)
    {
        const FieldShape &s = f.shape;
        if (s.bigValues == 0)
            return;
        ShapeFlag flag = ShapeFlag::of(ShapeFlag::Kind::BigScalar, f.path, s.bigValues, f.values);
        const auto top = s.biggestValues.largest(1);
        flag.detail = QStringLiteral("%1 of %2 values over %3; the largest %4")
                          .arg(s.bigValues)
                          .arg(f.values)
                          .arg(bytesText(options.bigScalarBytes))
                          .arg(bytesText(top.empty() ? 0 : top.front().value));
        flag.examples = examplesOf(s.biggestValues, options.examples);
        report.flags.push_back(std::move(flag));
    }

    void perDocument(ShapeFlag::Kind kind, const Distribution &d, const CandidateTail &tail,
                     const StatisticalThreshold &t, const QString &what)
    {
        if (d.count() == 0 || d.max() <= t.value)
            return;
        const auto above = tail.above(t.value);
        ShapeFlag flag = ShapeFlag::of(kind, {}, above.size(), profile.documents);
        const bool exact = tail.isCompleteAbove(t.value);
        flag.detail = QStringLiteral("%1%2 documents over %3 %4 (%5; median %6, max %7)")
                          .arg(exact ? QString() : QStringLiteral("at least "))
                          .arg(above.size())
                          .arg(t.value)
                          .arg(what, t.rule)
                          .arg(d.quantile(0.5))
                          .arg(d.max());
        for (std::size_t i = 0; i < above.size() && i < options.examples; ++i)
            flag.examples.push_back({above[i].rawId, above[i].docIndex});
        report.flags.push_back(std::move(flag));
    }

    // Sibling rare fields of the same documents (one document with 300 extra fields) are one
    // flag: the first path, the others counted in its detail.
    void groupRareFields()
    {
        std::vector<ShapeFlag> kept;
        for (ShapeFlag &f : report.flags) {
            auto same = std::find_if(kept.begin(), kept.end(), [&](const ShapeFlag &k) {
                return parentOf(k.path) == parentOf(f.path) && k.count == f.count &&
                       !k.examples.empty() && indexes(k) == indexes(f);
            });
            if (same == kept.end()) {
                kept.push_back(std::move(f));
                continue;
            }
            ++same->siblings;
        }
        for (ShapeFlag &k : kept)
            if (k.siblings > 0)
                k.detail += QStringLiteral("; with %1 more fields beside it in the same documents")
                                .arg(k.siblings);
        report.flags = std::move(kept);
    }
    static std::vector<std::uint64_t> indexes(const ShapeFlag &f)
    {
        std::vector<std::uint64_t> out;
        for (const ShapeFlag::Example &e : f.examples)
            out.push_back(e.docIndex);
        return out;
    }
};

// The detection's method, with a floor: `far` above the median (a document with one optional
// field more than the rest is not an outlier, though a fence over identical counts says so).
StatisticalThreshold thresholdOf(const Distribution &d, const DetectionOptions &detection,
                                 std::uint64_t floor, const QString &floorRule)
{
    if (d.count() == 0)
        return {};
    const OutlierMethod method =
        detection.method == OutlierMethod::Absolute ? OutlierMethod::Iqr : detection.method;
    StatisticalThreshold t = StatisticalThreshold::derive(d, method, detection.parameters);
    if (t.value < floor) {
        t.value = floor;
        t.rule = floorRule.arg(floor);
    }
    return t;
}

} // namespace

ShapeReport ShapeDetector::detect(const CollectionProfile &profile, const ShapeOptions &options,
                                  const DetectionOptions &detection)
{
    ShapeReport report;
    report.options = options;
    const std::uint64_t walked = profile.shape.walkedDocuments();
    if (profile.documents == 0 || walked != profile.documents) {
        if (profile.measuredOnServer)
            report.why =
                QStringLiteral("shape not measured: the server measured sizes and array "
                               "lengths only (a partial analysis; auto reads every field)");
        else if (profile.documents == 0)
            report.why = QStringLiteral("shape not measured: no document was read");
        else
            report.why = QStringLiteral("shape not measured: %1 of the %2 documents were walked "
                                        "(a scan resumed from a state an older version saved)")
                             .arg(walked)
                             .arg(profile.documents);
        return report;
    }
    report.measured = true;
    const DocumentShape &shape = profile.shape;
    report.fieldCountThreshold = fieldCountThreshold(shape.fieldCounts, detection);
    report.depthThreshold = depthThreshold(shape.depths, detection);
    report.flags = fieldFlags(profile, options);
    Finder find{profile, options, report};
    for (const FieldProfile &f : profile.fields)
        find.keysAsData(f);
    for (const FieldProfile &f : profile.fields)
        find.bigScalar(f);
    find.perDocument(ShapeFlag::Kind::ManyFields, shape.fieldCounts, shape.mostFields,
                     report.fieldCountThreshold, QStringLiteral("fields"));
    find.perDocument(ShapeFlag::Kind::DeepNesting, shape.depths, shape.deepest,
                     report.depthThreshold, QStringLiteral("levels deep"));
    VersionDetector::apply(profile, options, detection, report);
    SparseFamilyFinder::find(profile, options, report);
    return report;
}

StatisticalThreshold ShapeDetector::fieldCountThreshold(const Distribution &fieldCounts,
                                                        const DetectionOptions &detection)
{
    return thresholdOf(fieldCounts, detection, 2 * fieldCounts.quantile(0.5),
                       QStringLiteral("twice the median, %1 (the method's threshold is lower)"));
}

StatisticalThreshold ShapeDetector::depthThreshold(const Distribution &depths,
                                                   const DetectionOptions &detection)
{
    return thresholdOf(
        depths, detection, depths.quantile(0.5) + 2,
        QStringLiteral("the median + 2 levels, %1 (the method's threshold is lower)"));
}

std::vector<ShapeFlag> ShapeDetector::fieldFlags(const CollectionProfile &profile,
                                                 const ShapeOptions &options)
{
    ShapeReport report;
    Finder find{profile, options, report};
    for (const FieldProfile &f : profile.fields)
        find.rareField(f);
    find.groupRareFields();
    for (const FieldProfile &f : profile.fields)
        find.mixedTypes(f, f.shape.types, false);
    for (const FieldProfile &f : profile.fields)
        find.mixedTypes(f, f.shape.elementTypes, true);
    return std::move(report.flags);
}

} // namespace oe
