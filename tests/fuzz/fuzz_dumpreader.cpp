// libFuzzer target: the dump reader (DumpFileSource: framing, gzip) and the profile builder
// (ProfileBuilder through Analyzer::run), then outlier detection and split recommendations on
// the profile. The input is a .bson dump as it lies on disk (gzip when it starts with 1f 8b).
//
// Oracles, besides the sanitizers: the profile is consistent (status vs error, counts vs
// sizes, every byte of a file read without error belongs to a document, outlier rows name
// analysed documents); and the same bytes gzip-compressed (a .bson.gz) give the same result:
// the same documents and bytes, and any fault at the same document and offset.

#include "FuzzSupport.h"

#include "analysis/Analyzer.h"
#include "analysis/OutlierDetector.h"
#include "analysis/SplitRecommendation.h"
#include "source/DumpFileSource.h"

#include <cstdint>

namespace {

struct Outcome
{
    oe::CollectionProfile profile;
    QString describe() const
    {
        return QStringLiteral("documents %1, bytes %2, status %3, error kind %4 at doc %5 offset "
                              "%6: %7")
            .arg(profile.documents)
            .arg(profile.bytesRead)
            .arg(int(profile.status))
            .arg(int(profile.error.kind))
            .arg(profile.error.docIndex)
            .arg(profile.error.byteOffset)
            .arg(profile.error.message);
    }
};

Outcome analyse(const QString &path, const oe::ProfileBuilder::Limits &limits,
                std::size_t batchBytes)
{
    oe::DetectionOptions detection;
    oe::AnalysisOptions options;
    options.threads = 1;
    options.limits = limits;
    options.batchBytes = batchBytes;
    oe::OutlierDetector::prepareScan(detection, options.limits.keepDocumentsLargerThan,
                                     options.limits.keepArraysLongerThan);
    oe::DumpFileSource source(path);
    return {oe::Analyzer::run(source, options)};
}

void checkProfile(const Outcome &o, std::size_t size, bool compressed)
{
    const oe::CollectionProfile &p = o.profile;
    if ((p.status == oe::CollectionProfile::Status::Failed) != p.error.isError())
        oefuzz::finding("status Failed but no error, or an error but not Failed", o.describe());
    if (p.status == oe::CollectionProfile::Status::Cancelled)
        oefuzz::finding("cancelled without a cancel flag", o.describe());
    if (p.sizes.count() != p.documents || p.sizes.sum() != p.bytesRead)
        oefuzz::finding("size distribution disagrees with the document/byte counts", o.describe());
    if (p.documents * 5 > p.bytesRead)
        oefuzz::finding("documents smaller than 5 bytes were counted", o.describe());
    if (compressed)
        return;
    if (p.bytesRead > size)
        oefuzz::finding("more bytes analysed than the file holds", o.describe());
    if (!p.error.isError() && p.bytesRead != size)
        oefuzz::finding("no error, but not every byte of the file belongs to a document",
                        o.describe());
    if (p.error.isError() && p.error.byteOffset > std::int64_t(size))
        oefuzz::finding("fault offset past the end of the file", o.describe());
}

void detect(const oe::CollectionProfile &profile)
{
    for (const auto method : {oe::OutlierMethod::Absolute, oe::OutlierMethod::Percentile,
                              oe::OutlierMethod::Iqr, oe::OutlierMethod::Mad}) {
        oe::DetectionOptions options;
        options.method = method;
        const oe::OutlierReport report = oe::OutlierDetector::detect(profile, options);
        if (report.outlierDocuments > profile.documents)
            oefuzz::finding("more outlier documents than documents");
        for (const oe::OutlierRow &row : report.rows) {
            if (row.docIndex >= profile.documents) // a full scan analyses 0 .. documents-1
                oefuzz::finding("an outlier row names a document that was not analysed", row.id);
            if (row.bsonSize > profile.sizes.max() || row.bsonSize < profile.sizes.min())
                oefuzz::finding("an outlier row's size is outside the analysed sizes", row.id);
        }
    }
    (void)oe::SplitRecommendation::recommend(profile);
}

void check(const std::uint8_t *data, std::size_t size, const QString &raw, const QString &gz)
{
    const bool compressed = oefuzz::isGzip(data, size);
    // As analyze reads it: default limits and batch size.
    const Outcome plain =
        analyse(raw, oe::ProfileBuilder::Limits{}, oe::AnalysisOptions{}.batchBytes);
    checkProfile(plain, size, compressed);
    detect(plain.profile);

    // The same documents as a .bson.gz, read in batches of 700 bytes (documents straddle
    // batches) into tiny candidate capacities (the bounded lists evict and truncate), must give
    // the same documents, bytes and fault.
    if (!compressed && size > 0) {
        const QByteArray packed = oefuzz::gzipped(data, size);
        oefuzz::writeFile(gz, packed.constData(), std::size_t(packed.size()));
        oe::ProfileBuilder::Limits tiny;
        tiny.largestDocumentsCapacity = 2;
        tiny.longestArraysCapacity = 2;
        tiny.perPathCapacity = 2;
        tiny.maxChildrenPerField = 4;
        const Outcome zipped = analyse(gz, tiny, 700);
        checkProfile(zipped, size, true);
        detect(zipped.profile);
        const oe::CollectionProfile &a = plain.profile, &b = zipped.profile;
        if (a.documents != b.documents || a.bytesRead != b.bytesRead || a.status != b.status ||
            a.error.kind != b.error.kind || a.error.docIndex != b.error.docIndex ||
            a.error.byteOffset != b.error.byteOffset)
            oefuzz::finding(
                "the .bson and the same .bson.gz disagree",
                QStringLiteral("bson: %1 / gz: %2").arg(plain.describe(), zipped.describe()));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString raw = oefuzz::scratchPath(QStringLiteral("input.bson"));
    const QString gz = oefuzz::scratchPath(QStringLiteral("input.bson.gz"));
    oefuzz::writeFile(raw, data, size);
    try {
        check(data, size, raw, gz);
    } catch (const oefuzz::KnownFinding &) {
    }
    oefuzz::removeTree(raw);
    oefuzz::removeTree(gz);
    return 0;
}
