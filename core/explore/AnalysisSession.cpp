#include "explore/AnalysisSession.h"

#include "history/HistoryStore.h"

#include "analysis/DataKeyFolder.h"
#include "analysis/OutlierDetector.h"
#include "explore/MeasureSetup.h"
#include "measure/MeasureProjection.h"
#include "mongo/ConnectionReuse.h"
#include "mongo/UnseenFieldFinder.h"
#include "scan/RangedScan.h"
#include "scan/ServerTally.h"
#include "shape/ShapeDetector.h"
#include "source/DocumentPace.h"

#include <set>

namespace oe {

namespace {

AnalysisOptions scanOptions(const AnalysisRequest &request, std::shared_ptr<const MeasurePlan> plan)
{
    AnalysisOptions options;
    options.measurePlan = std::move(plan);
    options.selection = request.selection;
    options.threads = request.threads;
    options.maxDocsPerSecond = request.maxDocsPerSecond;
    OutlierDetector::prepareScan(request.detection, options.limits.keepDocumentsLargerThan,
                                 options.limits.keepArraysLongerThan);
    options.limits.bigScalarBytes = request.shape.bigScalarBytes;
    if (request.shape.versions == ShapeOptions::Versions::Named)
        options.limits.versionFields.push_back(request.shape.versionField);
    return options;
}

// A server-side measurement's batch: more replies than fit in the server's 16 MiB limit.
constexpr int kMeasuredBatchDocuments = 1 << 20;

LiveQuery queryFor(const AnalysisRequest &request)
{
    LiveQuery query;
    query.filter = request.filter;
    query.selection = request.selection;
    query.maxTimeMs = request.maxTimeMs;
    // A paced scan asks the server for no more than it will take in a tenth of a second.
    query.batchSize = request.batchSize > 0
                          ? request.batchSize
                          : int(std::min<std::size_t>(
                                DocumentPace::batchDocuments(request.maxDocsPerSecond), 1 << 30));
    query.database = request.source.database;
    query.collection = request.source.collection;
    return query;
}

// The plan the scan measures by: a find (every selection but a $sample) checks elements by its
// projection, which an aggregation's $project cannot.
std::shared_ptr<const MeasurePlan> scanPlan(const std::shared_ptr<const MeasurePlan> &decided,
                                            const DocumentSelection &selection)
{
    if (!decided || selection.mode == DocumentSelection::Mode::Sample)
        return decided;
    auto plan = std::make_shared<MeasurePlan>(*decided);
    plan->elementCheck = MeasurePlan::ElementCheck::Projected;
    return plan;
}

// The documents a breakdown by shard may have to place: the outliers, and the largest documents
// and longest arrays a threshold chosen later may flag.
std::vector<std::string> placeable(const AnalysisResult &result)
{
    std::set<std::string> ids;
    for (const OutlierRow &row : result.outliers.rows)
        ids.insert(row.rawId);
    for (const TailCandidate &c : result.profile.largestDocuments.sorted())
        ids.insert(c.rawId);
    for (const TailCandidate &c : result.profile.longestArrays.sorted())
        ids.insert(c.rawId);
    return {ids.begin(), ids.end()};
}

void readSharding(AnalysisResult *result)
{
    const SourceRef &source = result->request.source;
    result->sharding = ShardBreakdown::read(source.settings, source.database, source.collection,
                                            placeable(*result));
    if (!result->sharding)
        return;
    result->profile.notes << result->sharding->layout.describe();
    if (!result->sharding->note.isEmpty())
        result->profile.notes << result->sharding->note;
}

// A server-side measurement of every document also reads whole those that hold a top-level
// field the discovery sample did not see (UnseenFieldFinder: one pass of the server's matcher,
// their _ids only), so an array there is counted even in a document of an ordinary size. A
// sample or a limit reads too few documents for that pass to pay: their size checks decide.
QStringList lookForUnseen(const AnalysisRequest &request, const MeasureSetup::Outcome &measure,
                          LiveQuery *query)
{
    if (!query->measurePlan || request.selection.mode != DocumentSelection::Mode::Full)
        return {};
    SourceError error;
    const auto found = UnseenFieldFinder::find(request.source.settings, request.source.database,
                                               request.source.collection, request.filter,
                                               measure.knownNames, request.maxTimeMs, &error);
    const QString fallback =
        QStringLiteral("only those whose figures the plan does not explain are read whole");
    if (!found)
        return error.isError() ? QStringList{QStringLiteral("could not look for documents with "
                                                            "top-level fields the discovery "
                                                            "sample did not see (%1): %2")
                                                 .arg(error.toString(), fallback)}
                               : QStringList{};
    if (found->capped)
        return {QStringLiteral("more than %1 documents hold top-level fields the discovery "
                               "sample did not see: %2")
                    .arg(UnseenFieldFinder::kMaxDocuments)
                    .arg(fallback)};
    query->unseenIds = found->ids;
    if (found->count == 0)
        return {};
    return {(found->count == 1 ? QStringLiteral("1 document holds")
                               : QStringLiteral("%1 documents hold").arg(found->count)) +
            QStringLiteral(" a top-level field the discovery sample did not see: read whole")};
}

// Why the tallies cannot count this scan (empty: they can): they take a full scan, not paced,
// not a range scan resumed (it measures as it began).
QString talliesIneligible(const AnalysisRequest &request)
{
    if (request.selection.mode != DocumentSelection::Mode::Full)
        return QStringLiteral("a sample or a limit is read one measurement per document");
    if (request.usesRanges() && request.resume)
        return QStringLiteral("a resumed range scan (--resume) is read one measurement per "
                              "document");
    if (request.maxDocsPerSecond > 0)
        return QStringLiteral("a paced scan (--max-docs-per-sec) is read one measurement per "
                              "document");
    return {};
}

// --measure cluster, and auto where it chose the cluster: a server-side measurement of every
// document, counted in the cluster (ServerTally), so the reply is bounded by the answer, not by
// the documents. It costs the server more passes than one measurement per document (--measure
// server) costs it: through this machine's 100 Mbit/s + 10 ms proxy, 350,000 device_readings
// took 3.6 s counted and 3.0 s per document, for 4.0 MB on the wire against 25.2 MB; the slower
// the link or the larger the collection, the more it pays. With --measure cluster, a sample, a
// limit, a paced or a resumed range scan, and a collection the tallies cannot count, are read
// one measurement per document, with a note; auto's `declined` says why the tallies could not.
std::optional<CollectionProfile> countInCluster(const AnalysisRequest &request,
                                                const SourceRef &scanned, const LiveQuery &query,
                                                const MeasureSetup::Outcome &measure,
                                                const std::atomic<bool> *cancel,
                                                const AnalysisSession::ProgressCallback &progress,
                                                QStringList *notes, QString *declined)
{
    // (A collection the discovery read saw nothing of, missing or empty, is left to the
    // per-document scan, which says which.)
    const bool asked = request.measure == MeasureMode::Cluster || measure.countsInCluster;
    if (!asked || !measure.plan || !measure.collectionSeen)
        return std::nullopt;
    if (const QString ineligible = talliesIneligible(request); !ineligible.isEmpty()) {
        *notes << QStringLiteral("measured document by document: %1").arg(ineligible);
        return std::nullopt;
    }
    const ProfileBuilder::Limits limits = scanOptions(request, measure.plan).limits;
    std::shared_ptr<const ShapePlan> shape;
    if (measure.shape) {
        auto sized = std::make_shared<ShapePlan>(*measure.shape);
        sized->sizeLimit = limits.bigScalarBytes;
        shape = std::move(sized);
    } else if (!measure.shapeDeclined.isEmpty()) {
        *notes << QStringLiteral("partial analysis: the shape is not counted in the cluster "
                                 "(%1)")
                      .arg(measure.shapeDeclined);
    }
    ServerTally::Request tally{scanned.settings,   query, measure.plan,          limits,
                               measure.knownNames, shape, request.parallelRanges};
    auto profile = ServerTally::run(tally, cancel, progress, declined);
    if (!profile && !measure.countsInCluster)
        *notes << QStringLiteral("measured document by document (the tallies cannot count this "
                                 "collection: %1)")
                      .arg(*declined);
    return profile;
}

// The scan as the setup decided: counted in the cluster, or read in _id ranges or one cursor,
// measured on the server or here. Nullopt only where auto chose the cluster and the tallies
// declined (`declined` says why): the caller reads every document here instead.
std::optional<CollectionProfile> scanAsDecided(const AnalysisRequest &request,
                                               const MeasureSetup::Outcome &measure,
                                               const std::atomic<bool> *cancel,
                                               const AnalysisSession::ProgressCallback &progress,
                                               QStringList *notes, QString *declined)
{
    LiveQuery query = queryFor(request);
    const auto plan = scanPlan(measure.plan, request.selection);
    // The scan's connection asks for the wire compression the setup chose.
    SourceRef scanned = request.source;
    scanned.settings.compressors = measure.compressors;
    if (plan) {
        query.projection = MeasureProjection::build(*plan);
        query.measurePlan = plan;
        // The replies are small: the first is as large as the others (16 MiB), not the
        // driver's 101 documents and a round trip more.
        if (query.batchSize == 0)
            query.batchSize = kMeasuredBatchDocuments;
    }
    // What the discovery read just learnt, the scan does not ask again.
    query.knownCount = measure.collectionDocuments;
    if (measure.collectionSeen)
        query.checksExistence = false;
    if (auto counted =
            countInCluster(request, scanned, query, measure, cancel, progress, notes, declined))
        return counted;
    if (measure.countsInCluster)
        return std::nullopt;
    *notes << lookForUnseen(request, measure, &query);
    if (request.usesRanges()) {
        RangedScan::Request ranged{
            scanned.settings,       query,          scanOptions(request, plan),
            request.parallelRanges, request.resume, request.checkpointMs};
        return RangedScan::run(ranged, cancel, progress);
    }
    const auto source = scanned.openSource(query);
    return Analyzer::run(*source, scanOptions(request, plan), cancel, progress);
}

} // namespace

std::unique_ptr<DocumentSource> AnalysisSession::openSource(const AnalysisRequest &request)
{
    return request.source.openSource(queryFor(request));
}

AnalysisResult AnalysisSession::run(const AnalysisRequest &request, const std::atomic<bool> *cancel,
                                    const ProgressCallback &progress)
{
    // The probe, the discovery read, the scan and the shard check share one connection.
    const ConnectionReuse reuse;
    AnalysisResult result;
    result.request = request;
    SourceError refused;
    auto measure = MeasureSetup::decide(
        request.measure, request.source, request.filter, cancel, &refused,
        scanOptions(request, nullptr).limits.versionFields, talliesIneligible(request).isEmpty());
    if (!measure) {
        result.profile.source = request.source.displayName();
        result.profile.status = CollectionProfile::Status::Failed;
        result.profile.error = refused;
        return result;
    }
    QStringList scanNotes;
    QString declined;
    auto profile = scanAsDecided(request, *measure, cancel, progress, &scanNotes, &declined);
    if (!profile) {
        // Auto chose the cluster, whose tallies declined: every document read here instead.
        measure = MeasureSetup::clientSide(MeasureMode::Auto, request.source, declined, true);
        scanNotes.clear();
        profile = scanAsDecided(request, *measure, cancel, progress, &scanNotes, &declined);
    }
    result.profile = std::move(*profile);
    if (result.sourceUnreadable())
        return result;
    DataKeyFolder::fold(result.profile);
    // A resumed range scan measures as it began, which may differ from what was decided now.
    if (measure->countsInCluster || result.profile.measuredOnServer == (measure->plan != nullptr))
        result.profile.notes = measure->notes + scanNotes + result.profile.notes;
    result.outliers = OutlierDetector::detect(result.profile, request.detection);
    result.shape = ShapeDetector::detect(result.profile, request.shape, request.detection);
    result.recommendations = SplitRecommendation::recommend(
        result.profile, request.targetPrimaryBytes, request.detection.parameters.fenceK);
    if (request.source.kind == SourceRef::Kind::Collection &&
        result.profile.status == CollectionProfile::Status::Complete)
        readSharding(&result);
    keepInHistory(&result);
    return result;
}

// A complete analysis goes into the history; a history that cannot be written is a note, never
// a failed analysis.
void AnalysisSession::keepInHistory(AnalysisResult *result)
{
    const AnalysisRequest &request = result->request;
    if (request.historyPath.isEmpty() ||
        result->profile.status != CollectionProfile::Status::Complete)
        return;
    HistoryStore history(request.historyPath);
    if (!history.record(request.source, result->profile, result->outliers, &result->shape,
                        request.origin)) {
        result->profile.notes
            << QStringLiteral("not kept in the analysis history: %1").arg(history.error());
        return;
    }
    // How each version's share moved, this analysis last (is a lazy migration progressing?).
    SchemaVersions &versions = result->shape.versions;
    if (versions.inEffect())
        versions.history =
            history.versionHistory(HistoryStore::sourceKeyOf(request.source), versions.field);
}

void AnalysisSession::release(const AnalysisResult &result)
{
    RangedScan::release(result.profile);
}

AnalysisResult AnalysisSession::redetect(const AnalysisResult &result,
                                         const DetectionOptions &detection)
{
    AnalysisResult out = result;
    out.request.detection = detection;
    if (!out.sourceUnreadable()) {
        out.outliers = OutlierDetector::detect(out.profile, detection);
        out.shape = ShapeDetector::detect(out.profile, out.request.shape, detection);
        // The history's shares are of the same field only (another one's were not kept now).
        if (out.shape.versions.field == result.shape.versions.field)
            out.shape.versions.history = result.shape.versions.history;
    }
    return out;
}

} // namespace oe
