#include "report/ReportWriter.h"

#include "analysis/SamplePrecision.h"
#include "bson/BsonTypes.h"
#include "bson/DocumentId.h"
#include "output/StagedOutput.h"
#include "report/ShapeCsv.h"

#include <QDir>

namespace oe {

namespace {

QString num(std::uint64_t v)
{
    return QString::number(qulonglong(v));
}

QString dec(double v)
{
    return QString::number(v, 'f', 2);
}

QString statusText(CollectionProfile::Status s)
{
    switch (s) {
    case CollectionProfile::Status::Complete:
        return QStringLiteral("complete");
    case CollectionProfile::Status::Cancelled:
        return QStringLiteral("cancelled (partial)");
    case CollectionProfile::Status::Failed:
        return QStringLiteral("failed (partial)");
    }
    return {};
}

} // namespace

QString ReportWriter::typesText(const FieldProfile &field)
{
    QStringList parts;
    for (const QString &name : BsonTypes::names(field.typeMask)) {
        if (name == QLatin1String("array") && field.elementTypeMask)
            parts << QStringLiteral("array<%1>")
                         .arg(BsonTypes::names(field.elementTypeMask).join(QLatin1Char('|')));
        else
            parts << name;
    }
    return parts.join(QLatin1Char('|'));
}

bool ReportWriter::summary(const Report &r, QIODevice *out)
{
    CsvWriter csv(out, {QStringLiteral("metric"), QStringLiteral("value")});
    for (const auto &[metric, value] : summaryRows(r))
        csv.addRow({metric, value});
    return csv.flush();
}

namespace {

// The sample's precision (empty cells for a full scan or a limit, whose figures are exact or
// not a random sample); a bound the sample size cannot give is "unbounded".
void appendPrecisionRows(const SamplePrecision &precision, QList<QPair<QString, QString>> &rows)
{
    auto row = [&](const char *metric, const QString &value) {
        rows.append({QString::fromLatin1(metric), precision.applies ? value : QString()});
    };
    auto bound = [](const std::optional<std::uint64_t> &value) {
        return value ? QString::number(*value) : QStringLiteral("unbounded");
    };
    row("confidence", QString::number(precision.confidence, 'f', 2));
    row("size_p50_ci_low", bound(precision.p50.low));
    row("size_p50_ci_high", bound(precision.p50.high));
    row("size_p99_ci_low", bound(precision.p99.low));
    row("size_p99_ci_high", bound(precision.p99.high));
    row("share_above_sample_max", QString::number(precision.shareAboveMax, 'g', 4));
    row("documents_above_sample_max",
        precision.documentsAboveMax ? QString::number(*precision.documentsAboveMax) : QString());
    row("sample_for_p99_within_0_1", QString::number(precision.sampleForP99));
    row("p99_precision_target", QString::number(precision.targetPoints, 'g', 6));
    row("sample_for_p99_target", QString::number(precision.sampleForTarget));
}

} // namespace

QList<QPair<QString, QString>> ReportWriter::summaryRows(const Report &r, SampleRows sampleRows)
{
    const CollectionProfile &p = r.profile;
    const Distribution &s = p.sizes;
    QList<QPair<QString, QString>> rows;
    auto row = [&](const char *metric, const QString &value) {
        rows.append({QString::fromLatin1(metric), value});
    };
    row("documents", num(p.documents));
    row("size_min", num(s.min()));
    row("size_p50", num(s.quantile(0.50)));
    row("size_p90", num(s.quantile(0.90)));
    row("size_p95", num(s.quantile(0.95)));
    row("size_p99", num(s.quantile(0.99)));
    row("size_p99_9", num(s.quantile(0.999)));
    row("size_max", num(s.max()));
    row("size_mean", dec(s.mean()));
    row("size_total", num(s.sum()));
    const SamplePrecision precision = SamplePrecision::of(p, r.p99PrecisionPoints);
    if (precision.applies || sampleRows == SampleRows::Always)
        appendPrecisionRows(precision, rows);
    row("outlier_documents", num(r.outliers.outlierDocuments));
    row("size_threshold", num(r.outliers.size.value));
    row("size_outliers", num(r.outliers.sizeOutliers));
    row("size_rule", r.outliers.size.rule);
    row("array_threshold", r.outliers.arrayThresholdIsGlobal ? num(r.outliers.array.value)
                                                             : QStringLiteral("per path"));
    row("array_outliers", num(r.outliers.arrayOutliers));
    std::uint64_t overHalf = 0;
    for (const auto &c : p.largestDocuments.above(ThresholdPreset::kMaxBsonBytes / 2))
        overHalf += c.value > 0;
    row("documents_over_half_16mib", num(overHalf));
    row("method", methodName(r.detection.method));
    row("source", p.source);
    row("mode", p.mode);
    row("status", statusText(p.status));
    row("error", p.error.isError() ? p.error.toString() : QString());
    row("seconds", QString::number(p.seconds, 'f', 3));
    row("warnings", r.outliers.warnings.join(QStringLiteral("; ")));
    const bool shaped = r.shape && r.shape->measured;
    row("shape_flags", shaped ? num(r.shape->listed().size() - r.shape->explained()) : QString());
    row("shape_explained_by_versions", shaped ? num(r.shape->explained()) : QString());
    const bool versioned = shaped && r.shape->versions.inEffect();
    row("version_field", versioned ? QString::fromStdString(r.shape->versions.field) : QString());
    row("versions", versioned ? ShapeCsv::shares(r.shape->versions) : QString());
    row("versions_note", shaped ? r.shape->versions.note : QString());
    row("shape_note", r.shape ? r.shape->why : QString());
    row("field_count_threshold", shaped ? num(r.shape->fieldCountThreshold.value) : QString());
    row("depth_threshold", shaped ? num(r.shape->depthThreshold.value) : QString());
    return rows;
}

bool ReportWriter::sizeHistogram(const Report &r, QIODevice *out)
{
    CsvWriter csv(out, {QStringLiteral("bin_lower"), QStringLiteral("bin_upper"),
                        QStringLiteral("count"), QStringLiteral("outliers")});
    const std::uint64_t threshold = r.outliers.size.value;
    for (const auto &bin : r.profile.sizes.histogram().bins()) {
        std::uint64_t outliers = 0;
        if (bin.lower > threshold) {
            outliers = bin.count;
        } else if (bin.upper > threshold + 1) {
            for (const auto &c : r.profile.largestDocuments.above(threshold))
                outliers += c.value >= bin.lower && c.value < bin.upper;
        }
        csv.addRow({num(bin.lower), num(bin.upper), num(bin.count), num(outliers)});
    }
    return csv.flush();
}

bool ReportWriter::fields(const Report &r, QIODevice *out)
{
    CsvWriter csv(out, {QStringLiteral("path"),
                        QStringLiteral("types"),
                        QStringLiteral("present"),
                        QStringLiteral("arrays"),
                        QStringLiteral("len_min"),
                        QStringLiteral("len_p50"),
                        QStringLiteral("len_p90"),
                        QStringLiteral("len_p99"),
                        QStringLiteral("len_max"),
                        QStringLiteral("len_mean"),
                        QStringLiteral("bytes_total"),
                        QStringLiteral("present_share"),
                        QStringLiteral("values"),
                        QStringLiteral("len_p95"),
                        QStringLiteral("len_p99_9"),
                        QStringLiteral("element_bytes_mean"),
                        QStringLiteral("array_threshold"),
                        QStringLiteral("inside_array"),
                        QStringLiteral("type_counts"),
                        QStringLiteral("element_type_counts"),
                        QStringLiteral("distinct_keys"),
                        QStringLiteral("keys_as_data")});
    const bool shaped = r.shape && r.shape->measured;
    const double docs = double(std::max<std::uint64_t>(1, r.profile.documents));
    for (const FieldProfile &f : r.profile.fields) {
        const bool arr = f.arrays > 0;
        const Distribution &l = f.lengths;
        auto q = [&](double v) { return arr ? num(l.quantile(v)) : QString(); };
        QString threshold;
        if (arr) {
            if (r.outliers.arrayThresholdIsGlobal)
                threshold = num(r.outliers.array.value);
            else if (auto it = r.outliers.arrayPerPath.find(f.path);
                     it != r.outliers.arrayPerPath.end())
                threshold = num(it->second.value);
        }
        // Measured on the server inside a summarised array: lengths only, the rest blank.
        auto known = [&](const QString &v) { return f.lengthsOnly ? QString() : v; };
        csv.addRow({QString::fromStdString(f.path),
                    typesText(f),
                    known(num(f.presentDocuments)),
                    num(f.arrays),
                    arr ? num(l.min()) : QString(),
                    q(0.5),
                    q(0.9),
                    q(0.99),
                    arr ? num(l.max()) : QString(),
                    arr ? dec(l.mean()) : QString(),
                    known(num(f.bytes)),
                    known(QString::number(double(f.presentDocuments) / docs, 'f', 4)),
                    known(num(f.values)),
                    q(0.95),
                    q(0.999),
                    arr ? known(dec(f.meanElementBytes())) : QString(),
                    threshold,
                    f.insideArray ? QStringLiteral("true") : QStringLiteral("false"),
                    shaped ? ShapeCsv::typeCounts(f.shape.types) : QString(),
                    shaped ? ShapeCsv::typeCounts(f.shape.elementTypes) : QString(),
                    shaped && f.shape.keyCounts.count() ? num(f.shape.distinctKeys) : QString(),
                    shaped ? (f.shape.keysAsData ? QStringLiteral("true") : QStringLiteral("false"))
                           : QString()});
    }
    return csv.flush();
}

bool ReportWriter::arrayHistograms(const Report &r, QIODevice *out)
{
    CsvWriter csv(out, {QStringLiteral("path"), QStringLiteral("bin_lower"),
                        QStringLiteral("bin_upper"), QStringLiteral("count")});
    for (const FieldProfile &f : r.profile.fields) {
        if (f.arrays == 0)
            continue;
        const QString path = QString::fromStdString(f.path);
        for (const auto &bin : f.lengths.histogram().bins())
            csv.addRow({path, num(bin.lower), num(bin.upper), num(bin.count)});
    }
    return csv.flush();
}

bool ReportWriter::outlierRows(const Report &r, QIODevice *out)
{
    CsvWriter csv(out, {QStringLiteral("_id"), QStringLiteral("bson_size"), QStringLiteral("path"),
                        QStringLiteral("array_length"), QStringLiteral("reason"),
                        QStringLiteral("detail"), QStringLiteral("doc_index"),
                        QStringLiteral("percent_of_16mib")});
    for (const OutlierRow &o : r.outliers.rows) {
        csv.addRow(
            {o.id, num(o.bsonSize), o.path, o.path.isEmpty() ? QString() : num(o.arrayLength),
             o.reason, o.detail, num(o.docIndex),
             QString::number(100.0 * double(o.bsonSize) / double(ThresholdPreset::kMaxBsonBytes),
                             'f', 2)});
    }
    return csv.flush();
}

bool ReportWriter::topDocuments(const Report &r, QIODevice *out)
{
    CsvWriter csv(out, {QStringLiteral("rank"), QStringLiteral("_id"), QStringLiteral("bson_size"),
                        QStringLiteral("doc_index")});
    int rank = 0;
    for (const auto &c : r.profile.largestDocuments.largest(std::size_t(r.topK))) {
        csv.addRow({QString::number(++rank), DocumentId::toRelaxedJson(c.rawId), num(c.value),
                    num(c.docIndex)});
    }
    return csv.flush();
}

bool ReportWriter::topArrays(const Report &r, QIODevice *out)
{
    CsvWriter csv(out, {QStringLiteral("path"), QStringLiteral("rank"), QStringLiteral("_id"),
                        QStringLiteral("array_length"), QStringLiteral("bson_size"),
                        QStringLiteral("doc_index")});
    for (const FieldProfile &f : r.profile.fields) {
        if (f.arrays == 0)
            continue;
        int rank = 0;
        for (const auto &c : f.longestPerDocument.largest(std::size_t(r.topK))) {
            csv.addRow({QString::fromStdString(f.path), QString::number(++rank),
                        DocumentId::toRelaxedJson(c.rawId), num(c.value), num(c.docSize),
                        num(c.docIndex)});
        }
    }
    return csv.flush();
}

bool ReportWriter::recommendations(const Report &r, QIODevice *out)
{
    CsvWriter csv(out,
                  {QStringLiteral("path"), QStringLiteral("splittable"), QStringLiteral("keep"),
                   QStringLiteral("fence_keep"), QStringLiteral("target_keep"),
                   QStringLiteral("mean_element_bytes"), QStringLiteral("documents_over"),
                   QStringLiteral("elements_moved"), QStringLiteral("explanation")});
    for (const auto &s : r.recommendations) {
        // Element bytes not measured (on the server, inside another array): no size target.
        const FieldProfile *f = r.profile.field(s.path);
        const bool sized = !f || !f->lengthsOnly;
        csv.addRow({QString::fromStdString(s.path),
                    s.splittable ? QStringLiteral("true") : QStringLiteral("false"),
                    s.splittable ? num(s.keep) : QString(), num(s.fenceKeep),
                    sized ? num(s.targetKeep) : QString(),
                    sized ? dec(s.meanElementBytes) : QString(),
                    s.splittable ? num(s.documentsOver) : QString(),
                    s.splittable ? num(s.elementsMoved) : QString(), s.explanation});
    }
    return csv.flush();
}

bool ReportWriter::shards(const Report &r, QIODevice *out)
{
    CsvWriter csv(out, {QStringLiteral("shard"), QStringLiteral("host"), QStringLiteral("chunks"),
                        QStringLiteral("jumbo_chunks"), QStringLiteral("outlier_documents"),
                        QStringLiteral("outlier_bytes"), QStringLiteral("bytes_over_threshold")});
    if (r.sharding)
        for (const ShardBreakdown::Row &row : r.sharding->rows(r.outliers))
            csv.addRow({row.shard, row.host, QString::number(row.chunks),
                        QString::number(row.jumboChunks), num(row.outlierDocuments),
                        num(row.outlierBytes), num(row.bytesOverThreshold)});
    return csv.flush();
}

bool ReportWriter::shapeOutliers(const Report &r, QIODevice *out)
{
    static const ShapeReport none;
    return ShapeCsv::outliers(r.shape ? *r.shape : none, out);
}

bool ReportWriter::schemaVersions(const Report &r, QIODevice *out)
{
    static const ShapeReport none;
    return ShapeCsv::versions(r.shape ? *r.shape : none, out);
}

bool ReportWriter::write(const QString &directory, const Report &report, QString *error,
                         QStringList *written)
{
    if (!QDir().mkpath(directory)) {
        *error = QStringLiteral("%1: cannot create the output directory").arg(directory);
        return false;
    }
    using Writer = bool (*)(const Report &, QIODevice *);
    // summary.csv last: it is the one that says whether the analysis was complete.
    const std::pair<const char *, Writer> files[] = {
        {"size_histogram.csv", &ReportWriter::sizeHistogram},
        {"fields.csv", &ReportWriter::fields},
        {"array_histograms.csv", &ReportWriter::arrayHistograms},
        {"outliers.csv", &ReportWriter::outlierRows},
        {"top_documents.csv", &ReportWriter::topDocuments},
        {"top_arrays.csv", &ReportWriter::topArrays},
        {"recommendations.csv", &ReportWriter::recommendations},
        {"shards.csv", &ReportWriter::shards},
        {"shape_outliers.csv", &ReportWriter::shapeOutliers},
        {"schema_versions.csv", &ReportWriter::schemaVersions},
        {"summary.csv", &ReportWriter::summary},
    };
    const QDir dir(directory);
    StagedOutput output;
    SourceError failure;
    for (const auto &[name, writer] : files) {
        if (writer == &ReportWriter::shards && !report.sharding)
            continue;
        QIODevice *device = output.add(dir.filePath(QString::fromLatin1(name)), &failure);
        if (!device)
            break;
        writer(report, device); // a refused write shows as the file's error at commit
    }
    if (!failure.isError())
        output.commit(written, &failure);
    if (failure.isError()) {
        *error = failure.toString() + QStringLiteral(" (no report written)");
        return false;
    }
    return true;
}

} // namespace oe
