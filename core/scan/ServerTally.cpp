#include "scan/ServerTally.h"

#include "bson/BsonTypes.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "measure/MeasureReply.h"
#include "measure/TallyPipelines.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerOpCanceller.h"
#include "mongo/UnseenFieldFinder.h"
#include "mongo/internal/MongoDriver.h"
#include "scan/ShapeTally.h"
#include "scan/internal/TallyReply.h"
#include "stats/TailFence.h"

#include <QElapsedTimer>

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace oe {

using namespace tallyreply;

namespace {

// One tail of the profile, as the tallies see it.
struct Tail
{
    int id = 0; // ProfileBuilder::kLargestTail, kLongestTail or a node
    TailFence fence;
};

class TallyRun
{
public:
    TallyRun(const ServerTally::Request &request, const std::atomic<bool> *cancel,
             const Analyzer::ProgressCallback &progress)
        : m_request(request), m_cancel(cancel), m_progress(progress), m_builder(request.limits)
    {
        // Aggregations take the records' element check as an expression ($elemMatch is a
        // find's projection only).
        auto plan = std::make_shared<MeasurePlan>(*request.plan);
        plan->elementCheck = MeasurePlan::ElementCheck::Expression;
        m_plan = plan;
        m_builder.measureWith(m_plan);
        const ProfileBuilder::Limits &l = request.limits;
        m_tails.push_back({ProfileBuilder::kLargestTail,
                           TailFence(l.largestDocumentsCapacity, l.keepDocumentsLargerThan)});
        m_tails.push_back({ProfileBuilder::kLongestTail,
                           TailFence(l.longestArraysCapacity, l.keepArraysLongerThan)});
        for (std::size_t i = 0; i < m_plan->arrayNodes().size(); ++i)
            m_tails.push_back({int(i), TailFence(l.perPathCapacity, CandidateTail::kNoThreshold)});
        if (request.shape)
            m_shape = std::make_unique<ShapeTally>(request.shape, l, m_builder);
    }

    std::optional<CollectionProfile> run(QString *declined);

private:
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    template <typename Visit>
    bool aggregate(const QByteArray &pipeline, const QString &step, Visit &&visit);
    bool unseen();
    bool tallies();
    bool addTally(const bson_t *row);
    void countTails(const MeasureReply &reply, std::uint64_t times);
    TallyPipelines::Fence fenceOf(const Tail &t);
    bool candidates();
    bool candidate(const bson_t *entry, bool contiguous);
    bool placeShape();
    bool contiguous() const
    {
        return m_inScope > 0 && m_hi >= m_lo && std::uint64_t(m_hi - m_lo) + 1 == m_inScope;
    }
    void offer(const bson_t *entry, std::uint64_t position);
    bool readWhole();
    QString chooseServer();
    void report();
    void see(std::int64_t r, std::uint64_t documents = 1)
    {
        m_lo = std::min(m_lo, r);
        m_hi = std::max(m_hi, r);
        m_inScope += documents;
    }
    CollectionProfile finish(CollectionProfile::Status status);
    std::optional<CollectionProfile> decline(const QString &why, QString *declined)
    {
        if (declined)
            *declined = why;
        return std::nullopt;
    }

    const ServerTally::Request &m_request;
    const std::atomic<bool> *m_cancel;
    const Analyzer::ProgressCallback &m_progress;
    QElapsedTimer m_clock;
    std::unique_ptr<MongoConnection> m_connection;
    std::shared_ptr<const MeasurePlan> m_plan;
    TallyPipelines::Scope m_scope;
    ProfileBuilder m_builder;
    std::vector<Tail> m_tails;
    std::unique_ptr<ShapeTally> m_shape;
    std::unordered_map<std::int64_t, std::uint64_t> m_placed; // record id -> position
    std::uint64_t m_groups = 0;
    std::unordered_map<std::int64_t, std::string> m_whole;    // record id -> raw _id
    std::unordered_map<std::string, std::uint64_t> m_wholeAt; // raw _id -> position
    std::uint64_t m_unseen = 0;
    std::uint64_t m_candidates = 0;
    static constexpr std::uint64_t kMaxCandidateBytes = 12u << 20;
    // The scope's record ids: with none missing between lo and hi, a document's position is
    // its record id less lo, and no pass needs to count them.
    std::int64_t m_lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t m_hi = std::numeric_limits<std::int64_t>::min();
    std::uint64_t m_inScope = 0;
    // Every pass asks the same server: record ids are each member's own.
    std::uint32_t m_serverId = 0;
    QString m_refusal; // the server refused a pass, or its answer cannot be used: decline
    SourceError m_error;
};

template <typename Visit>
bool TallyRun::aggregate(const QByteArray &pipeline, const QString &step, Visit &&visit)
{
    const auto command = BsonDocument::fromBytes(pipeline);
    if (!command)
        return false;
    BsonDocument opts;
    BSON_APPEND_BOOL(opts.get(), "allowDiskUse", true);
    if (m_request.query.maxTimeMs > 0)
        BSON_APPEND_INT64(opts.get(), "maxTimeMS", m_request.query.maxTimeMs);
    BSON_APPEND_INT32(opts.get(), "serverId", std::int32_t(m_serverId));
    // A pass answers only once the server has read every document: a cancel kills it there.
    const QString comment = ServerOpCanceller::uniqueComment();
    BSON_APPEND_UTF8(opts.get(), "comment", comment.toUtf8().constData());
    const ServerOpCanceller canceller(m_request.settings, m_cancel, comment);
    const CollectionHandle c(mongoc_client_get_collection(
        MongoDriver::client(*m_connection), m_request.query.database.toUtf8().constData(),
        m_request.query.collection.toUtf8().constData()));
    const CursorHandle cursor(mongoc_collection_aggregate(c.get(), MONGOC_QUERY_NONE,
                                                          command->get(), opts.get(), nullptr));
    const bson_t *doc = nullptr;
    while (!cancelled() && mongoc_cursor_next(cursor.get(), &doc))
        if (!visit(doc))
            return false;
    bson_error_t e;
    if (!mongoc_cursor_error(cursor.get(), &e))
        return true;
    m_error = MongoDriver::errorFrom(*m_connection, e, step);
    if (m_error.fault == SourceError::ConnectionFault::Refused) {
        m_refusal = m_error.message;
        m_error = SourceError();
    }
    return false;
}

bool TallyRun::unseen()
{
    if (m_scope.schema.isEmpty())
        return true;
    return aggregate(TallyPipelines::unseen(m_scope),
                     QStringLiteral("looking for documents with top-level fields the discovery "
                                    "sample did not see"),
                     [&](const bson_t *doc) {
                         bson_iter_t id;
                         std::int64_t r = 0;
                         if (!recordIdAt(doc, "r", &r)) {
                             m_refusal = QStringLiteral("its record ids are no integers (a "
                                                        "clustered collection)");
                             return false;
                         }
                         m_whole[r] =
                             bson_iter_init_find(&id, doc, "_id") ? rawIdAt(&id) : std::string();
                         see(r);
                         ++m_unseen;
                         return m_whole.size() <= ServerTally::kMaxReadWhole;
                     });
}

bool TallyRun::tallies()
{
    return aggregate(
        TallyPipelines::tallies(*m_plan, m_scope, m_request.shape.get()),
        QStringLiteral("counting %1 in the cluster ($group)").arg(m_request.query.ns()),
        [&](const bson_t *row) { return addTally(row); });
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
    see(lo, 0);
    see(hi, times);
    std::uint32_t keyLength = 0;
    const std::uint8_t *keyData = nullptr;
    bson_iter_document(&key, &keyLength, &keyData);
    bson_t k;
    bson_init_static(&k, keyData, keyLength);
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
    // An _id that is an object holds fields the measurement does not show: read whole.
    const bool explained = type != "object" && type != "array" && reply->explained(*m_plan);
    if (!bson_iter_init_find(&it, row, "e") || !BSON_ITER_HOLDS_BOOL(&it) ||
        bson_iter_bool(&it) != explained) {
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
    countTails(*reply, times);
    return m_refusal.isEmpty();
}

void TallyRun::countTails(const MeasureReply &reply, std::uint64_t times)
{
    const auto longest = reply.longestPerNode(*m_plan);
    const std::uint64_t most =
        longest.empty() ? 0 : *std::max_element(longest.begin(), longest.end());
    for (Tail &t : m_tails) {
        const std::uint64_t value = t.id == ProfileBuilder::kLargestTail ? reply.size
                                    : t.id == ProfileBuilder::kLongestTail
                                        ? most
                                        : longest[std::size_t(t.id)];
        t.fence.count(value, times);
        if (t.fence.kept() > ServerTally::kMaxKept)
            m_refusal = QStringLiteral("more than %1 documents are above a threshold")
                            .arg(ServerTally::kMaxKept);
    }
}

// Each tail's fence (TailFence); the first value it cannot keep is passed over.
TallyPipelines::Fence TallyRun::fenceOf(const Tail &t)
{
    if (const auto over = t.fence.passOver())
        m_builder.passOver(t.id, *over);
    return {t.id, t.fence.atLeast(), t.fence.tied()};
}

bool TallyRun::candidates()
{
    std::vector<TallyPipelines::Fence> fences;
    std::uint64_t expected = 0;
    for (const Tail &t : m_tails)
        if (!t.fence.isEmpty()) {
            fences.push_back(fenceOf(t));
            expected += std::min<std::uint64_t>(t.fence.capacity(), m_inScope) + t.fence.kept();
        }
    const bool contiguous = this->contiguous();
    std::vector<std::int64_t> whole;
    if (!contiguous) {
        for (const auto &[r, id] : m_whole)
            whole.push_back(r);
        if (m_shape)
            for (const std::int64_t r : m_shape->toPlace())
                whole.push_back(r);
    }
    std::sort(whole.begin(), whole.end());
    whole.erase(std::unique(whole.begin(), whole.end()), whole.end());
    std::vector<TallyPipelines::Fence> shapeFences;
    std::vector<std::int64_t> irregular;
    if (m_shape) {
        expected += m_shape->expectedCandidates();
        shapeFences = m_shape->fences();
        for (const auto &[r, id] : m_whole)
            irregular.push_back(r);
        std::sort(irregular.begin(), irregular.end());
    }
    // The server gathers them in one document (a $facet): within its 16 MiB, or a read of
    // every measurement is the way.
    const std::uint64_t entryBytes = 64 + 16 * m_plan->arrayNodes().size();
    if ((expected + whole.size()) * entryBytes > kMaxCandidateBytes) {
        m_refusal = QStringLiteral("the tails' candidates would not fit in one reply");
        return false;
    }
    if (fences.empty() && whole.empty() && shapeFences.empty())
        return true;
    return aggregate(TallyPipelines::candidates(*m_plan, m_scope, fences, whole, !contiguous,
                                                m_request.shape.get(), shapeFences, irregular),
                     QStringLiteral("finding the largest documents and longest arrays"),
                     [&](const bson_t *entry) { return candidate(entry, contiguous); });
}

bool TallyRun::candidate(const bson_t *entry, bool contiguous)
{
    std::int64_t r = 0;
    std::uint64_t place = 0;
    if (!recordIdAt(entry, "r", &r)) {
        m_refusal = QStringLiteral("its record ids are no integers (a clustered collection)");
        return false;
    }
    if (!contiguous && (!numberAt(entry, "p", &place) || place == 0))
        return true;
    const std::uint64_t position = contiguous ? std::uint64_t(r - m_lo) : place - 1;
    if (!contiguous)
        m_placed[r] = position;
    if (const auto w = m_whole.find(r); w != m_whole.end()) {
        m_wholeAt[w->second] = position;
        return true;
    }
    offer(entry, position);
    if (m_shape)
        m_shape->candidate(entry, r);
    return true;
}

void TallyRun::offer(const bson_t *entry, std::uint64_t position)
{
    bson_iter_t id;
    if (!bson_iter_init_find(&id, entry, "_id"))
        return;
    const std::string raw = rawIdAt(&id);
    std::uint64_t size = 0, node = 0;
    numberAt(entry, "s", &size);
    ++m_candidates;
    for (const Tail &t : m_tails) {
        std::uint64_t value = 0;
        const QByteArray field = t.id == ProfileBuilder::kLargestTail ? QByteArray("s")
                                 : t.id == ProfileBuilder::kLongestTail
                                     ? QByteArray("l")
                                     : "v" + QByteArray::number(t.id);
        if (!numberAt(entry, field.constData(), &value) || value == 0)
            continue;
        if (t.id == ProfileBuilder::kLongestTail && !numberAt(entry, "j", &node))
            continue;
        m_builder.offerTallied(t.id, value, position, size, raw, int(node));
    }
}

// The shape's examples and tails, now that their positions are known.
bool TallyRun::placeShape()
{
    if (!m_shape)
        return true;
    const bool contiguous = this->contiguous();
    m_shape->finish(
        [&](std::int64_t r) -> std::optional<std::uint64_t> {
            if (contiguous)
                return r >= m_lo && r <= m_hi ? std::optional(std::uint64_t(r - m_lo))
                                              : std::nullopt;
            const auto at = m_placed.find(r);
            return at == m_placed.end() ? std::nullopt : std::optional(at->second);
        },
        m_whole);
    return true;
}

bool TallyRun::readWhole()
{
    // Contiguous record ids place the documents read whole without the candidates' pass.
    const bool contiguous = m_inScope > 0 && std::uint64_t(m_hi - m_lo) + 1 == m_inScope;
    if (contiguous)
        for (const auto &[r, raw] : m_whole)
            m_wholeAt[raw] = std::uint64_t(r - m_lo);
    // In their order (a find returns natural order): the examples of versions want it.
    std::vector<std::pair<std::uint64_t, std::string>> placed;
    for (const auto &[raw, position] : m_wholeAt)
        placed.emplace_back(position, raw);
    std::sort(placed.begin(), placed.end());
    std::vector<std::string> ids;
    for (auto &[position, raw] : placed)
        ids.push_back(std::move(raw));
    constexpr std::size_t kPerFind = 1000;
    for (std::size_t from = 0; from < ids.size() && !cancelled(); from += kPerFind) {
        BsonDocument filter;
        bson_t condition, list;
        BSON_APPEND_DOCUMENT_BEGIN(filter.get(), "_id", &condition);
        BSON_APPEND_ARRAY_BEGIN(&condition, "$in", &list);
        for (std::size_t i = from; i < std::min(ids.size(), from + kPerFind); ++i)
            bsonraw::append(&list, std::to_string(i - from).c_str(), -1,
                            bsonraw::fromDocumentId(ids[i]));
        bson_append_array_end(&condition, &list);
        bson_append_document_end(filter.get(), &condition);
        BsonDocument opts;
        if (m_request.query.maxTimeMs > 0)
            BSON_APPEND_INT64(opts.get(), "maxTimeMS", m_request.query.maxTimeMs);
        BSON_APPEND_INT32(opts.get(), "serverId", std::int32_t(m_serverId));
        SourceError error;
        const bool ok = MongoDriver::find(
            *m_connection, m_request.query.database, m_request.query.collection, filter.get(),
            opts.get(), QStringLiteral("reading whole the documents the tallies cannot stand for"),
            [&](const bson_t *doc) {
                bson_iter_t id;
                if (!bson_iter_init_find(&id, doc, "_id"))
                    return true;
                const auto at = m_wholeAt.find(rawIdAt(&id));
                if (at == m_wholeAt.end())
                    return true;
                SourceError fault;
                if (!m_builder.addDocument(bson_get_data(doc), doc->len, at->second, &fault)) {
                    fault.docIndex = std::int64_t(at->second);
                    m_error = fault;
                    return false;
                }
                return true;
            },
            &error);
        if (!ok && !m_error.isError())
            m_error = error;
        if (m_error.isError())
            return false;
    }
    return true;
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
                                    "documents, %4 candidates for the tails, %5 read whole")
                         .arg(m_shape ? QStringLiteral(", shape included") : QString())
                         .arg(m_groups)
                         .arg(profile.documents)
                         .arg(m_candidates + (m_shape ? m_shape->candidates() : 0))
                         .arg(m_wholeAt.size());
    if (m_unseen > 0)
        profile.notes << (m_unseen == 1 ? QStringLiteral("1 document holds")
                                        : QStringLiteral("%1 documents hold").arg(m_unseen)) +
                             (m_shape ? QStringLiteral(" a field or a type the discovery sample "
                                                       "did not see, or may hold a big scalar: "
                                                       "read whole")
                                      : QStringLiteral(" a top-level field the discovery sample "
                                                       "did not see: read whole"));
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
    return finish(CollectionProfile::Status::Complete);
}

} // namespace

std::optional<CollectionProfile> ServerTally::run(const Request &request,
                                                  const std::atomic<bool> *cancel,
                                                  const Analyzer::ProgressCallback &progress,
                                                  QString *declined)
{
    TallyRun run(request, cancel, progress);
    return run.run(declined);
}

} // namespace oe
