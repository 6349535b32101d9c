#include "scan/ServerTally.h"

#include "analysis/DataKeyFolder.h"
#include "scan/internal/TallyRun.h"

#include <QElapsedTimer>

#include <algorithm>

namespace oe {

using namespace tallyreply;

bool TallyRun::tallies()
{
    // The schema's few rejects, by _id: the server need not judge every document twice. (A
    // document that changes between the passes is counted as it then is; a type the shape
    // does not know is read whole after: irregularPass().)
    if (m_shape)
        excludeById();
    // Over every document, the shape's tallies need no record ids where nothing forces the
    // $project that gives them (TallyPipelines::tallyWithoutRecordIds): the rows are placed
    // after (placeRows), each pass read in natural order, so its first documents are the
    // collection's. With the user's filter, the planner chooses the order: record ids kept.
    const bool place = m_shape && m_scope.filter.isEmpty() &&
                       TallyPipelines::tallyWithoutRecordIds(*m_request.shape);
    m_scope.recordIds = !place;
    const bool ok = aggregateRanged(
        [&](const TallyPipelines::Scope &scope) {
            return TallyPipelines::tallies(*m_plan, scope, m_request.shape.get());
        },
        QStringLiteral("counting %1 in the cluster ($group)").arg(m_request.query.ns()),
        [&](Reply row) { return addTally(row.document); }, readsInNaturalOrder() || place, true, 0,
        place);
    m_scope.recordIds = true;
    return ok;
}

// One row of the tallies: {_id: {t, i, m}, n, e, lo, hi, w}.
bool TallyRun::addTally(const bson_t *row)
{
    const QString malformed = QStringLiteral("a tally the server returned is malformed");
    bson_iter_t key, it;
    std::uint64_t times = 0, idBox = 0;
    std::int64_t lo = 0, hi = 0;
    if (!bson_iter_init_find(&key, row, "_id") || !BSON_ITER_HOLDS_DOCUMENT(&key) ||
        !numberAt(row, "n", &times) || !recordIdAt(row, "lo", &lo) || !recordIdAt(row, "hi", &hi)) {
        m_refusal = malformed;
        return false;
    }
    std::uint32_t keyLength = 0;
    const std::uint8_t *keyData = nullptr;
    bson_iter_document(&key, &keyLength, &keyData);
    bson_t k;
    bson_init_static(&k, keyData, keyLength);
    see(lo, 0);
    see(hi, times);
    // A type the shape does not know: irregular documents, read whole after (irregularPass();
    // counted in the scope now, for the candidates' passes it runs with).
    if (m_shape)
        if (const auto unknown = m_shape->unknownTypes(&k); !unknown.empty()) {
            m_unknownTypes.insert(unknown.begin(), unknown.end());
            m_irregular += times;
            return true;
        }
    std::string type;
    if (bson_iter_init_find(&it, &k, "t") && BSON_ITER_HOLDS_UTF8(&it))
        type = bson_iter_utf8(&it, nullptr);
    if (!numberAt(&k, "i", &idBox) || !bson_iter_init_find(&it, &k, "m") ||
        !BSON_ITER_HOLDS_DOCUMENT(&it)) {
        m_refusal = malformed;
        return false;
    }
    std::uint32_t mLength = 0;
    const std::uint8_t *mData = nullptr;
    bson_iter_document(&it, &mLength, &mData);
    QString problem;
    auto reply = MeasureReply::parse(mData, mLength, *m_plan, &problem);
    if (!reply) {
        m_refusal = problem;
        return false;
    }
    const bool hasId = type != "missing" && idBox > 8;
    reply->idLength = hasId ? std::uint32_t(idBox - 3) : 0;
    ++m_groups;
    // An _id that is an object holds fields the measurement does not show: read whole. (A
    // regular document, counted with its shape, is explained by it: an object _id is not one.)
    const bool explained =
        m_shape || (type != "object" && type != "array" && reply->explained(*m_plan));
    if (!m_shape && (!bson_iter_init_find(&it, row, "e") || !BSON_ITER_HOLDS_BOOL(&it) ||
                     bson_iter_bool(&it) != explained)) {
        m_refusal = QStringLiteral("the server and the plan disagree on what it explains");
        return false;
    }
    if (!explained) {
        bson_iter_t list, entry;
        if (!bson_iter_init_find(&list, row, "w") || !bson_iter_recurse(&list, &entry))
            return true;
        while (bson_iter_next(&entry)) {
            std::uint32_t length = 0;
            const std::uint8_t *data = nullptr;
            if (!BSON_ITER_HOLDS_DOCUMENT(&entry))
                continue;
            bson_iter_document(&entry, &length, &data);
            bson_t e;
            bson_iter_t id;
            std::int64_t r = 0;
            bson_init_static(&e, data, length);
            if (recordIdAt(&e, "r", &r))
                m_whole[r] = bson_iter_init_find(&id, &e, "i") ? rawIdAt(&id) : std::string();
        }
        return m_whole.size() <= ServerTally::kMaxReadWhole;
    }
    const std::uint32_t idTypeBit = hasId ? BsonTypes::bitOfAlias(type) : 0;
    const std::uint32_t idBytes = hasId ? std::uint32_t(idBox - 3) : 0;
    if (m_shape) {
        if (!m_shape->count(row, &k, *reply, idTypeBit, idBytes, times, &m_refusal))
            return false;
    } else {
        m_builder.addTallied(*reply, idTypeBit, idBytes, times);
    }
    countTails(row, *reply, times);
    return m_refusal.isEmpty();
}

void TallyRun::countTails(const bson_t *row, const MeasureReply &reply, std::uint64_t times)
{
    const auto longest = reply.longestPerNode(*m_plan);
    const auto most = std::max_element(longest.begin(), longest.end());
    Known known{0, {}, reply.size, {}, std::uint64_t(most - longest.begin())};
    for (Tail &t : m_tails) {
        const std::uint64_t value = t.id == ProfileBuilder::kLargestTail ? reply.size
                                    : t.id == ProfileBuilder::kLongestTail
                                        ? (longest.empty() ? 0 : *most)
                                        : longest[std::size_t(t.id)];
        t.fence.count(value, times);
        known.values.push_back(value);
        if (t.fence.kept() > ServerTally::kMaxKept)
            m_refusal = QStringLiteral("more than %1 documents are above a threshold")
                            .arg(ServerTally::kMaxKept);
    }
    // Each of the row's documents, while every row names them all.
    const auto firsts = firstDocuments(row);
    m_knowing = m_knowing && firsts.size() == times && m_known.size() < ShapeTally::kMaxKnown;
    if (!m_knowing) {
        m_known.clear();
        return;
    }
    for (const auto &[r, rawId] : firsts) {
        known.recordId = r;
        known.rawId = rawId;
        m_known.push_back(known);
    }
}

// The server every pass asks (the URI's read preference chooses it once). Through mongos the
// record ids are each shard's own: they neither tell documents apart nor give the order a find
// through the router returns, so a sharded collection is measured per document.
QString TallyRun::chooseServer()
{
    mongoc_client_t *client = MongoDriver::client(*m_connection);
    bson_error_t e;
    mongoc_server_description_t *server =
        mongoc_client_select_server(client, false, mongoc_client_get_read_prefs(client), &e);
    if (!server)
        return QStringLiteral("no server to read from (%1)").arg(QString::fromUtf8(e.message));
    const QString type = QString::fromLatin1(mongoc_server_description_type(server));
    m_serverId = mongoc_server_description_id(server);
    m_serverHost = mongoc_server_description_host(server)->host_and_port;
    mongoc_server_description_destroy(server);
    if (type == QLatin1String("Mongos"))
        return QStringLiteral("through mongos each shard numbers its own records");
    return {};
}

void TallyRun::report()
{
    if (!m_progress)
        return;
    Analyzer::Progress p;
    p.documents = m_builder.documents();
    p.seconds = double(m_clock.nsecsElapsed()) / 1e9;
    m_progress(p);
}

CollectionProfile TallyRun::finish(CollectionProfile::Status status)
{
    CollectionProfile profile = m_builder.takeProfile();
    const QString where = m_connection ? m_connection->hosts() : QString();
    profile.source = where.isEmpty() ? m_request.query.ns()
                                     : QStringLiteral("%1 on %2").arg(m_request.query.ns(), where);
    const QString filterText =
        m_request.query.filter.trimmed().isEmpty()
            ? QString()
            : QStringLiteral(", filter ") + m_request.query.filter.simplified();
    profile.mode = m_scope.limit ? QStringLiteral("limit %1%2").arg(*m_scope.limit).arg(filterText)
                                 : QStringLiteral("full%1").arg(filterText);
    profile.bytesRead = profile.sizes.sum();
    profile.seconds = double(m_clock.nsecsElapsed()) / 1e9;
    // With the shape counted, the analysis is whole.
    profile.measuredOnServer = !m_shape;
    profile.countedInCluster = true;
    profile.status = status;
    if (status == CollectionProfile::Status::Failed)
        profile.error = m_error;
    if (status != CollectionProfile::Status::Complete)
        return profile;
    profile.notes << QStringLiteral("counted in the cluster%1: %2 distinct measurements for %3 "
                                    "documents, %4, %5 read whole%6")
                         .arg(m_shape ? QStringLiteral(", shape included") : QString())
                         .arg(m_groups)
                         .arg(profile.documents)
                         .arg(m_namedByRows
                                  ? QStringLiteral("each document named by its row (no "
                                                   "candidates pass)")
                                  : QStringLiteral("%1 candidates for the tails")
                                        .arg(m_candidates + (m_shape ? m_shape->candidates() : 0)))
                         .arg(m_wholeAt.size())
                         .arg(m_ranges.size() > 1
                                  ? QStringLiteral("; counted at once in %1 ranges of _id")
                                        .arg(m_ranges.size())
                                  : QString());
    if (m_unseen == 0)
        return profile;
    const QString held = m_unseen == 1 ? QStringLiteral("1 document holds")
                                       : QStringLiteral("%1 documents hold").arg(m_unseen);
    if (!m_shape)
        profile.notes << held + QStringLiteral(" a top-level field the discovery sample did not "
                                               "see: read whole");
    else
        profile.notes
            << held +
                   QStringLiteral(" a field or a type the discovery sample did not "
                                  "see, or may hold a big scalar: read whole") +
                   (m_irregular == 0
                        ? QString()
                        : QStringLiteral(" (%1 found by a type the tallies saw)").arg(m_irregular));
    return profile;
}

std::optional<CollectionProfile> TallyRun::run(QString *declined)
{
    m_clock.start();
    const LiveQuery &q = m_request.query;
    // A limit's own bound is its N measurements (and after a $limit the server no longer
    // tells record ids).
    if (q.selection.mode != DocumentSelection::Mode::Full)
        return decline(QStringLiteral("a sample or a limit is measured document by document"),
                       declined);
    if (!q.filter.trimmed().isEmpty()) {
        const auto filter = BsonDocument::fromJson(q.filter.toUtf8());
        if (!filter)
            return decline(QStringLiteral("the filter is no extended JSON"), declined);
        m_scope.filter = filter->bytes();
    }
    m_scope.schema = m_request.shape ? m_request.shape->regular()
                                     : UnseenFieldFinder::schema(m_request.knownNames);
    m_connection = MongoConnection::open(m_request.settings, &m_error);
    if (!m_connection)
        return finish(CollectionProfile::Status::Failed);
    if (const auto refused = chooseServer(); !refused.isEmpty())
        return decline(refused, declined);
    if (!planRanges())
        return cancelled() ? finish(CollectionProfile::Status::Cancelled)
                           : finish(CollectionProfile::Status::Failed);
    using Step = bool (TallyRun::*)();
    for (const Step step : {&TallyRun::unseen, &TallyRun::tallies, &TallyRun::candidates,
                            &TallyRun::placeShape, &TallyRun::readWhole}) {
        const bool ok = (this->*step)();
        if (cancelled())
            return finish(CollectionProfile::Status::Cancelled);
        if (!m_refusal.isEmpty())
            return decline(m_refusal, declined);
        if (m_whole.size() > ServerTally::kMaxReadWhole)
            return decline(QStringLiteral("more than %1 documents are to be read whole")
                               .arg(ServerTally::kMaxReadWhole),
                           declined);
        if (!ok)
            return finish(CollectionProfile::Status::Failed);
        report();
    }
    CollectionProfile profile = finish(CollectionProfile::Status::Complete);
    // The keys of an array's objects are counted in the cluster, not how many each one holds
    // (the skeleton's first elements hold them): keys used as data there report those.
    const std::shared_ptr<const ShapePlan> &shape = m_request.shape;
    for (const int a : shape ? shape->objectArrays() : std::vector<int>()) {
        const std::string prefix =
            shape->paths[std::size_t(a)].expression().mid(1).toStdString() + ".";
        const auto keys =
            std::count_if(profile.fields.begin(), profile.fields.end(), [&](const FieldProfile &f) {
                return f.path.rfind(prefix, 0) == 0 &&
                       f.path.find('.', prefix.size()) == std::string::npos;
            });
        if (std::uint64_t(keys) >= DataKeyFolder::kMinDistinctKeys)
            return decline(QStringLiteral("the objects in %1 hold %2 keys, maybe used as data")
                               .arg(QString::fromStdString(prefix.substr(0, prefix.size() - 1)))
                               .arg(keys),
                           declined);
    }
    return profile;
}

std::optional<CollectionProfile> ServerTally::run(const Request &request,
                                                  const std::atomic<bool> *cancel,
                                                  const Analyzer::ProgressCallback &progress,
                                                  QString *declined)
{
    TallyRun run(request, cancel, progress);
    return run.run(declined);
}

} // namespace oe
