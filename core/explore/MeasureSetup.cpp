#include "explore/MeasureSetup.h"

#include "analysis/MeasurePlanner.h"
#include "analysis/ProfileBuilder.h"
#include "analysis/ShapePlanner.h"
#include "bson/internal/BsonDocument.h"
#include "measure/MeasureProjection.h"
#include "measure/MeasureReply.h"
#include "mongo/LiveCollectionSource.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerProbe.h"

#include <bson/bson.h>

#include <algorithm>
#include <vector>

namespace oe {

namespace {

SourceError usage(const QString &message)
{
    SourceError e;
    e.kind = SourceError::Kind::Usage;
    e.message = message;
    return e;
}

// Walks the documents a discovery read returns ({d: document}, or the documents themselves),
// keeping each one's bytes for the plan's rest limit.
bool walkDiscovery(DocumentSource &source, bool projected, ProfileBuilder *builder,
                   std::vector<QByteArray> *kept, SourceError *error)
{
    if (!source.open(error))
        return false;
    DocumentBatch batch;
    for (;;) {
        const auto result = source.read(batch, 1u << 20, error);
        for (const auto &doc : batch.documents) {
            const std::uint8_t *data = batch.data(doc);
            std::uint32_t length = doc.length;
            bson_t outer;
            bson_iter_t it;
            if (projected && bson_init_static(&outer, data, length) &&
                bson_iter_init_find(&it, &outer, MeasureProjection::kDocument) &&
                BSON_ITER_HOLDS_DOCUMENT(&it))
                bson_iter_document(&it, &length, &data);
            builder->addDocument(data, length, doc.index, nullptr);
            kept->emplace_back(reinterpret_cast<const char *>(data), qsizetype(length));
        }
        if (result == DocumentSource::ReadResult::Error)
            return false;
        if (result == DocumentSource::ReadResult::End)
            return true;
    }
}

// The plan from the discovery's profile, its rest limit from the documents themselves: twice
// the most bytes one held outside the plan's arrays and its _id, + 256. Where the server can
// remove a field ($unsetField) and the plan has one array path that holds most of the sampled
// bytes (its arrays cut short as they are), the array's bytes are asked for by removal, which
// copies the rest of each document; else by wrapping, which copies the array.
MeasurePlan planned(ProfileBuilder &builder, const std::vector<QByteArray> &documents, bool removal,
                    const std::vector<std::string> &versionFields,
                    std::vector<std::string> *knownNames, std::optional<ShapePlan> *shape,
                    QString *shapeDeclined)
{
    const CollectionProfile discovery = builder.takeProfile();
    for (const FieldProfile &f : discovery.fields)
        if (f.depth == 0 && f.path.find('.') == std::string::npos)
            knownNames->push_back(f.path);
    MeasurePlan plan = MeasurePlanner::plan(discovery);
    *shape = ShapePlanner::plan(discovery, plan, DocumentShape::kDefaultBigScalarBytes,
                                versionFields, shapeDeclined);
    std::uint64_t rest = 0, restTotal = 0, total = 0;
    for (const QByteArray &d : documents) {
        const std::uint64_t r = MeasureReply::restOf(
            reinterpret_cast<const std::uint8_t *>(d.data()), std::uint32_t(d.size()), plan);
        rest = std::max(rest, r);
        restTotal += r;
        total += std::uint64_t(d.size());
    }
    if (!documents.empty())
        plan.restBytesLimit = 2 * rest + 256;
    if (removal && plan.summaries.size() == 1 && total >= 2 * restTotal)
        plan.arrayBytes = MeasurePlan::ArrayBytes::Removed;
    return plan;
}

// What a discovery read may count on, and what it learnt besides the plan.
struct Discovery
{
    bool sample = false;    // the server has $sample
    bool removal = false;   // ... $unsetField/$setField
    bool checksOps = false; // the read itself proves $sample, $bsonSize and $unsetField
    std::optional<std::uint64_t> documents; // out: the collection's count (collStats)
    bool sawDocuments = false;              // out: the read returned a document
    std::vector<std::string> knownNames;    // out: the top-level names it saw
    std::optional<ShapePlan> shape;         // out: the shape the tallies can count
    QString shapeDeclined;                  // out: or why they cannot
    std::vector<std::string> versionFields; // the scan's walk watches (VersionTally)
};

// A discovery read that proves the operators itself: $sample, $bsonSize, $setField and
// $unsetField are asked for, and a refusal is reported, not worked around.
Discovery provingOperators(const std::vector<std::string> &versionFields)
{
    Discovery how;
    how.sample = how.removal = how.checksOps = true;
    how.versionFields = versionFields;
    return how;
}

// The plan from a discovery read: arrays cut short on the server; where the server refuses
// that projection (a key $arrayToObject will not take), a few whole documents instead. A read
// that checks the operators tries the server only: a refusal is reported, not worked around.
std::optional<MeasurePlan> discover(const SourceRef &source, const QString &filter, Discovery *how,
                                    SourceError *error)
{
    LiveQuery query;
    query.database = source.database;
    query.collection = source.collection;
    query.filter = filter;
    query.selection.mode =
        how->sample ? DocumentSelection::Mode::Sample : DocumentSelection::Mode::Limit;
    query.selection.count = MeasureSetup::kDiscoveryDocuments;
    // One reply: the server sees the end only while filling a batch larger than the sample.
    query.batchSize = MeasureSetup::kDiscoveryDocuments + 1;
    query.checksExistence = false; // the scan that follows does, unless this read saw documents
    query.samplesOnClient = !how->checksOps;
    query.projection = MeasureProjection::discovery(
        MeasureSetup::kDiscoveryElements,
        how->checksOps ? MeasureProjection::Checks::Operators : MeasureProjection::Checks::None);
    auto learnt = [&](LiveCollectionSource &read, ProfileBuilder &builder,
                      const std::vector<QByteArray> &kept) {
        how->documents = read.collectionCount();
        how->sawDocuments = !kept.empty();
        return planned(builder, kept, how->removal, how->versionFields, &how->knownNames,
                       &how->shape, &how->shapeDeclined);
    };
    ProfileBuilder::Limits limits;
    limits.versionFields = how->versionFields;
    {
        ProfileBuilder builder(limits);
        LiveCollectionSource cut(source.settings, query);
        SourceError problem;
        std::vector<QByteArray> kept;
        if (walkDiscovery(cut, true, &builder, &kept, &problem))
            return learnt(cut, builder, kept);
        const bool refused =
            problem.serverCode != 0 || problem.fault == SourceError::ConnectionFault::Refused;
        if (!refused || how->checksOps) {
            *error = problem;
            return std::nullopt;
        }
    }
    query.projection.clear();
    query.selection.count = MeasureSetup::kDiscoveryWholeDocuments;
    ProfileBuilder builder(limits);
    LiveCollectionSource whole(source.settings, query);
    std::vector<QByteArray> kept;
    if (!walkDiscovery(whole, false, &builder, &kept, error))
        return std::nullopt;
    return learnt(whole, builder, kept);
}

} // namespace

bool MeasureSetup::acrossNetwork(MongoConnection &connection)
{
    if (!onThisMachine(connection.hosts()))
        return true;
    return ServerProbe::roundTripMs(connection) >= kNearbyRoundTripMs;
}

// Auto and client read every document here. Across a network they ask for wire compression (the
// link, not the walk, is then the limit: zstd made a client-side scan of activity_feeds through
// a 100 Mbit/s proxy 3x faster), unless the URI names its own compressors. A server on this
// machine that answers within kNearbyRoundTripMs is read uncompressed: there compressing only
// costs both ends CPU. A server that cannot be reached is left to the scan, whose error names
// its own step.
MeasureSetup::Outcome MeasureSetup::clientSide(MeasureMode mode, const SourceRef &source,
                                               const QString &why, std::optional<bool> across)
{
    Outcome outcome;
    QString note;
    if (mode == MeasureMode::Client)
        note = QStringLiteral("measured client-side (--measure client): every document was "
                              "read here");
    else if (!why.isEmpty())
        note = QStringLiteral("measured client-side: every field of every document (not "
                              "counted in the cluster: %1)")
                   .arg(why);
    else
        note = QStringLiteral("measured client-side: every field of every document");
    SourceError ignored;
    const auto connection = MongoConnection::open(source.settings, &ignored);
    if (!across)
        across = connection && acrossNetwork(*connection);
    if (*across && connection && !connection->uriNamesCompressors()) {
        outcome.compressors = QString::fromLatin1(kCompressors);
        note += QStringLiteral("; across the network the documents are asked for with wire "
                               "compression (zstd, snappy or zlib, the first the server has)");
    } else if (!*across && mode == MeasureMode::Auto) {
        note += QStringLiteral(" (the server is on this machine: its documents cross as fast "
                               "as they are walked; --measure cluster counts there)");
    }
    outcome.notes << note;
    return outcome;
}

namespace {

// The outcome of a plan the discovery learnt: measured on the server, or (auto) client-side
// where the plan has nothing to summarise or cannot be asked for.
MeasureSetup::Outcome withPlan(MeasurePlan plan, const Discovery &how)
{
    MeasureSetup::Outcome outcome;
    outcome.collectionDocuments = how.documents;
    outcome.collectionSeen = how.sawDocuments;
    if (!plan.unmeasurable.empty()) {
        QStringList paths;
        for (const std::string &p : plan.unmeasurable)
            paths << QString::fromStdString(p);
        outcome.notes << QStringLiteral("measured client-side: the server cannot measure the "
                                        "arrays at %1 (a key with a dot or a leading $, arrays "
                                        "two levels down, or a path that is an array in some "
                                        "documents and an object holding arrays in others)")
                             .arg(paths.join(QStringLiteral(", ")));
        return outcome;
    }
    outcome.plan = std::make_shared<const MeasurePlan>(std::move(plan));
    outcome.knownNames = how.knownNames;
    if (how.shape)
        outcome.shape = std::make_shared<const ShapePlan>(std::move(*how.shape));
    outcome.shapeDeclined = how.shapeDeclined;
    outcome.notes << MeasureSetup::describe(outcome.plan.get());
    return outcome;
}

// Measured on the server, the replies are numbers, _ids and the few documents read whole (or,
// where the server cannot measure the plan, every document, read here):
// across a network they are asked for with wire compression too (a million small documents
// counted in the cluster through 100 Mbit/s: 5.0 MB on the wire uncompressed), unless the URI
// names its own compressors.
MeasureSetup::Outcome compressed(MeasureSetup::Outcome outcome, MongoConnection &connection)
{
    if (!connection.uriNamesCompressors() && MeasureSetup::acrossNetwork(connection))
        outcome.compressors = QString::fromLatin1(MeasureSetup::kCompressors);
    return outcome;
}

// Auto with a scan the tallies can count: in the cluster where the server is across a network
// and the discovery read (which proves the operators) plans the whole analysis, shape included;
// else every document read here, the note saying why. A server that cannot be reached is
// reported as the discovery met it (nullopt with `error`), not asked again by the scan.
std::optional<MeasureSetup::Outcome> countedOrHere(const SourceRef &source, const QString &filter,
                                                   const std::vector<std::string> &versionFields,
                                                   SourceError *error)
{
    SourceError ignored;
    const auto connection = MongoConnection::open(source.settings, &ignored);
    const bool across = connection && MeasureSetup::acrossNetwork(*connection);
    if (!across)
        return MeasureSetup::clientSide(MeasureMode::Auto, source, QString(), false);
    Discovery how = provingOperators(versionFields);
    SourceError problem;
    auto plan = discover(source, filter, &how, &problem);
    if (!plan && problem.fault != SourceError::ConnectionFault::Refused &&
        problem.serverCode == 0) {
        *error = problem;
        return std::nullopt;
    }
    QString why;
    if (!plan)
        why = QStringLiteral("the server lacks an operator the tallies need: $sample, "
                             "$bsonSize, $setField (MongoDB 5.0 or later)");
    else if (!how.sawDocuments)
        why = QStringLiteral("the discovery read found no document");
    else if (!plan->unmeasurable.empty())
        why = QStringLiteral("the server cannot measure some arrays (--measure cluster says "
                             "which)");
    else if (!how.shape)
        why = how.shapeDeclined;
    if (!why.isEmpty())
        return MeasureSetup::clientSide(MeasureMode::Auto, source, why, true);
    MeasureSetup::Outcome outcome = withPlan(std::move(*plan), how);
    outcome.countsInCluster = true;
    outcome.notes = QStringList{QStringLiteral(
        "counted in the cluster (auto: the server is across a network, so only answers cross "
        "it; --measure client reads every document here)")};
    return compressed(std::move(outcome), *connection);
}

} // namespace

std::optional<MeasureSetup::Outcome>
MeasureSetup::decide(MeasureMode mode, const SourceRef &source, const QString &filter,
                     const std::atomic<bool> *, SourceError *error,
                     const std::vector<std::string> &versionFields, bool tallies)
{
    Outcome outcome;
    if (source.kind != SourceRef::Kind::Collection) {
        if (mode == MeasureMode::Server || mode == MeasureMode::Cluster) {
            *error = usage(QStringLiteral("--measure %1 needs a live collection (--uri); a "
                                          "dump file is measured here")
                               .arg(measureModeName(mode)));
            return std::nullopt;
        }
        return outcome;
    }
    if (mode == MeasureMode::Auto && tallies)
        return countedOrHere(source, filter, versionFields, error);
    if (mode != MeasureMode::Server && mode != MeasureMode::Cluster)
        return clientSide(mode, source);
    SourceError probeError;
    const auto connection = MongoConnection::open(source.settings, &probeError);
    // Each command costs a round trip: the discovery read itself proves the operators a
    // server-side measurement needs, and the server is asked about itself only where it refuses
    // that read (to say why, or to learn with what it has).
    if (connection) {
        Discovery how = provingOperators(versionFields);
        SourceError problem;
        if (auto plan = discover(source, filter, &how, &problem))
            return compressed(withPlan(std::move(*plan), how), *connection);
    }
    ServerInfo info;
    if (!connection || !ServerProbe::probe(*connection, source.database, &info, &probeError,
                                           ServerProbe::Latency::Skip)) {
        *error = probeError;
        return std::nullopt;
    }
    if (!info.supportsBsonSize) {
        const QString why =
            QStringLiteral("the server (%1) has no $bsonSize, which needs MongoDB 4.4 or later")
                .arg(info.isFerretDb ? QStringLiteral("FerretDB %1").arg(info.ferretDbVersion)
                                     : QStringLiteral("MongoDB %1").arg(info.version));
        *error = usage(QStringLiteral("--measure %1: %2; use --measure client or auto")
                           .arg(measureModeName(mode), why));
        return std::nullopt;
    }
    Discovery how{info.supportsSample,
                  info.supportsUnsetField,
                  false,
                  std::nullopt,
                  false,
                  {},
                  std::nullopt,
                  {},
                  versionFields};
    auto plan = discover(source, filter, &how, error);
    if (!plan)
        return std::nullopt;
    return compressed(withPlan(std::move(*plan), how), *connection);
}

bool MeasureSetup::onThisMachine(const QString &hosts)
{
    const QStringList list = hosts.split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (list.isEmpty())
        return false;
    for (const QString &entry : list) {
        const QString host = entry.trimmed();
        if (host.startsWith(QLatin1Char('/')) || host.endsWith(QLatin1String(".sock")))
            continue; // a socket file
        const QString name = host.startsWith(QLatin1Char('['))
                                 ? host.section(QLatin1Char(']'), 0, 0).mid(1)
                                 : host.section(QLatin1Char(':'), 0, 0);
        if (name != QLatin1String("localhost") && !name.startsWith(QLatin1String("127.")) &&
            name != QLatin1String("::1"))
            return false;
    }
    return true;
}

QString MeasureSetup::describe(const MeasurePlan *plan)
{
    if (!plan)
        return QStringLiteral("measured client-side");
    if (plan->isEmpty())
        return QStringLiteral("partial analysis: measured on the server ($bsonSize): document "
                              "sizes, no array to summarise; the other fields and the shape are "
                              "not measured (auto reads every field)");
    return QStringLiteral("partial analysis: measured on the server ($bsonSize): document sizes "
                          "and the arrays at %1 (lengths, bytes, element types; of their "
                          "elements' fields, the arrays' lengths); documents those figures do not "
                          "explain were read whole; the other fields' presence, types and bytes, "
                          "and the shape, are not measured (auto reads every field)")
        .arg(plan->describe());
}

} // namespace oe
