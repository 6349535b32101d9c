#pragma once

// Internal to core/scan: one scan counted in the cluster (ServerTally), its passes in
// ServerTally.cpp (the tallies), TallyRunWhole.cpp (the documents read whole: those the schema
// rejects, those of types the shape does not know), TallyRunCandidates.cpp (the tails'
// candidates, the shape's examples), TallyRunRanges.cpp and TallyRunPlaces.cpp.

#include "bson/BsonTypes.h"
#include "bson/internal/BsonDocument.h"
#include "bson/internal/BsonRaw.h"
#include "measure/MeasureReply.h"
#include "measure/TallyPipelines.h"
#include "mongo/MongoConnection.h"
#include "mongo/ServerOpCanceller.h"
#include "mongo/UnseenFieldFinder.h"
#include "mongo/internal/MongoDriver.h"
#include "scan/IdRangePlan.h"
#include "scan/ServerTally.h"
#include "scan/ShapeTally.h"
#include "scan/internal/TallyReply.h"
#include "stats/TailFence.h"
#include <QElapsedTimer>
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace oe {

class TallyRun
{
public:
    // A document of a pass's reply. (A bson_t's alignment is no template argument's.)
    struct Reply
    {
        const bson_t *document;
    };
    // One tail of the profile, as the tallies see it.
    struct Tail
    {
        int id = 0; // ProfileBuilder::kLargestTail, kLongestTail or a node
        TailFence fence;
    };

    TallyRun(const ServerTally::Request &request, const std::atomic<bool> *cancel,
             const Analyzer::ProgressCallback &progress)
        : m_request(request), m_cancel(cancel), m_progress(progress), m_builder(request.limits)
    {
        // Aggregations take the records' element check as an expression ($elemMatch is a
        // find's projection only); with a shape, the schema has checked the elements already.
        auto plan = std::make_shared<MeasurePlan>(*request.plan);
        plan->elementCheck = request.shape ? MeasurePlan::ElementCheck::Known
                                           : MeasurePlan::ElementCheck::Expression;
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
    // `natural`: with a hint of {$natural: 1}, so the documents come in record id order.
    template <typename Visit>
    bool aggregate(const QByteArray &pipeline, const QString &step, Visit &&visit,
                   bool natural = false)
    {
        return aggregateOn(*m_connection, m_serverId, pipeline, step, std::forward<Visit>(visit),
                           natural, &m_error, &m_refusal);
    }
    // The same on `connection`, the server `serverId` of its own topology (any thread).
    template <typename Visit>
    bool aggregateOn(MongoConnection &connection, std::uint32_t serverId,
                     const QByteArray &pipeline, const QString &step, Visit &&visit, bool natural,
                     SourceError *error, QString *refusal) const;
    // A pass over every document, cut into the _id ranges (planRanges) where there are some:
    // `pipelineFor` each range's scope, run at once, each on a connection of its own to the
    // same server; then `visit` sees every document of every range on this thread, rows of
    // the same _id merged where `mergeRows` (mergedRow); each range reads at most one more
    // than `maxDocuments` (0: all). (TallyRunRanges.cpp)
    using PipelineFor = std::function<QByteArray(const TallyPipelines::Scope &)>;
    using Visitor = std::function<bool(Reply)>;
    // With `place` (rows counted without record ids), every range reads in natural order too,
    // and the rows are placed (placeRows) before they are merged and visited.
    bool aggregateRanged(const PipelineFor &pipelineFor, const QString &step, const Visitor &visit,
                         bool natural, bool mergeRows, std::size_t maxDocuments = 0,
                         bool place = false);
    // Rows counted without record ids (no lo): their first documents' record ids looked up by
    // _id, lo and hi the scope's first and last (edgeRecordId). (TallyRunPlaces.cpp)
    bool placeRows(std::vector<BsonDocument> &rows);
    static BsonDocument placed(const bson_t *row, const std::map<std::string, std::int64_t> &ids,
                               std::int64_t lo, std::int64_t hi);
    // The record id of the collection's first (`direction` 1) or last (-1) document in natural
    // order; the least int64 where it has none; nullopt where the read failed (m_error) or the
    // ids are no integers (m_refusal).
    std::optional<std::int64_t> edgeRecordId(int direction);
    struct Pass
    {
        QByteArray pipeline;
        QString step;
        bool natural = false;
        // Past this many documents the pass stops reading (its answer keeps them, one more
        // than this); 0: every document of its answer.
        std::size_t maxDocuments = 0;
    };
    struct Answer
    {
        std::vector<BsonDocument> documents;
        SourceError error;
        QString refusal;
        bool ok = false;
    };
    // Runs `passes` at once on the ranges' connections, as many at a time as there are, and
    // keeps each answer whole; false where one failed (m_error or m_refusal says why).
    bool atOnce(const std::vector<Pass> &passes, std::vector<Answer> *answers);
    // Runs `passes` (at once where there are ranges, else one after another), then each
    // pass's documents to its visitor, in the passes' order: as if run one after another.
    bool runPasses(const std::vector<Pass> &passes, const std::vector<Visitor> &visits);
    // Cuts the scope into `_id` ranges (IdRangePlanner; the last one takes the _ids of other
    // types too): the request's ranges, two by default; none where one would do.
    bool planRanges();
    // The server's id in `connection`'s own topology: the one every pass reads (0: not there).
    std::uint32_t sameServer(MongoConnection &connection) const;
    // A pass over every document that leaves the few read whole out by _id ($nin) scans the
    // collection in natural order: the planner would walk the _id index for it, fetching each
    // document by its record id (a third slower). With the user's filter, the planner chooses.
    bool readsInNaturalOrder() const
    {
        return m_scope.filter.isEmpty() && !m_scope.regular.isEmpty();
    }
    // The documents the schema rejects (its unseen pass) and those of the rows whose $type
    // tuples hold a type the shape does not know (irregularPass: by those types, then left out
    // of the passes after as the others; at once with the candidates' passes, or alone:
    // irregular), each taken to be read whole (takeWhole; `seen`: not counted in the scope
    // yet). (TallyRunWhole.cpp)
    bool unseen();
    std::optional<Pass> irregularPass(Visitor *visit);
    bool irregularFound();
    bool irregular();
    bool takeWhole(const bson_t *entry, bool seen = true);
    // The scope's regular filter: the documents to read whole left out by _id ({$nin}) where
    // they are few enough and all have one (else the schema decides).
    void excludeById();
    bool tallies();
    bool addTally(const bson_t *row);
    void countTails(const bson_t *row, const MeasureReply &reply, std::uint64_t times);
    // Where every row names each of its documents (no more of them than its f holds: one or a
    // few documents a row, as on a collection of few large documents), each one's figures are
    // its row's: every document is a candidate of every tail, its position its record id's
    // place among them all, and no candidates pass runs. (TallyRunKnown.cpp)
    struct Known
    {
        std::int64_t recordId = 0;
        std::string rawId;
        std::uint64_t size = 0;
        std::vector<std::uint64_t> values; // per tail (m_tails)
        std::uint64_t node = 0;            // the first node with the longest array
    };
    std::vector<Known> m_known;
    bool m_knowing = true;
    bool m_namedByRows = false; // offerKnown took them
    bool offerKnown();
    TallyPipelines::Fence fenceOf(const Tail &t);
    bool candidates();
    bool candidate(const bson_t *entry, bool contiguous);
    void take(const bson_t *entry, std::int64_t r, std::uint64_t position);
    // The first documents at each fence whose ties are cut, each fence a pass of its own that
    // stops once it has them (TallyPipelines::tied): kept until their positions are known.
    void lazyTies(std::vector<TallyPipelines::Fence> &fences, std::vector<Pass> &passes,
                  std::vector<Visitor> &visits);
    void shapeLists(std::vector<Pass> &passes, std::vector<Visitor> &visits);
    struct Tied
    {
        std::int64_t recordId = 0;
        BsonDocument entry;
        bool shaped = false; // for the shape's tails only
    };
    std::vector<Tied> m_tied;
    std::unordered_set<std::int64_t> m_taken; // record ids offered to the tails
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
    // The rows' (path, type) pairs the shape does not know, and the documents of those rows.
    std::set<std::pair<int, std::uint32_t>> m_unknownTypes;
    std::uint64_t m_irregular = 0;
    std::uint64_t m_irregularFound = 0;
    bool m_irregularDone = false;
    std::uint64_t m_candidates = 0;
    static constexpr std::uint64_t kMaxCandidateBytes = 12u << 20;
    // The scope's record ids: with none missing between lo and hi, a document's position is
    // its record id less lo, and no pass needs to count them.
    std::int64_t m_lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t m_hi = std::numeric_limits<std::int64_t>::min();
    std::uint64_t m_inScope = 0;
    // Every pass asks the same server: record ids are each member's own.
    std::uint32_t m_serverId = 0;
    std::string m_serverHost;         // its "host:port"
    std::vector<QByteArray> m_ranges; // each range's _id condition; none: one pass
    std::vector<std::unique_ptr<MongoConnection>> m_rangeConnections; // each range's own
    QString m_refusal; // the server refused a pass, or its answer cannot be used: decline
    SourceError m_error;
};

template <typename Visit>
inline bool TallyRun::aggregateOn(MongoConnection &connection, std::uint32_t serverId,
                                  const QByteArray &pipeline, const QString &step, Visit &&visit,
                                  bool natural, SourceError *error, QString *refusal) const
{
    const auto command = BsonDocument::fromBytes(pipeline);
    if (!command)
        return false;
    BsonDocument opts;
    BSON_APPEND_BOOL(opts.get(), "allowDiskUse", true);
    if (m_request.query.maxTimeMs > 0)
        BSON_APPEND_INT64(opts.get(), "maxTimeMS", m_request.query.maxTimeMs);
    BSON_APPEND_INT32(opts.get(), "serverId", std::int32_t(serverId));
    if (natural) {
        bson_t hint;
        BSON_APPEND_DOCUMENT_BEGIN(opts.get(), "hint", &hint);
        BSON_APPEND_INT32(&hint, "$natural", 1);
        bson_append_document_end(opts.get(), &hint);
    }
    // A pass answers only once the server has read every document: a cancel kills it there.
    const QString comment = ServerOpCanceller::uniqueComment();
    BSON_APPEND_UTF8(opts.get(), "comment", comment.toUtf8().constData());
    const ServerOpCanceller canceller(m_request.settings, m_cancel, comment);
    const CollectionHandle c(mongoc_client_get_collection(
        MongoDriver::client(connection), m_request.query.database.toUtf8().constData(),
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
    *error = MongoDriver::errorFrom(connection, e, step);
    if (error->fault == SourceError::ConnectionFault::Refused) {
        *refusal = error->message;
        *error = SourceError();
    }
    return false;
}

} // namespace oe
