// TallyRun's passes cut into _id ranges (ServerTally): the unseen pass and the tallies run
// as several aggregations at once, each on a connection of its own to the same server, so a
// server with cores to spare counts a collection in a fraction of one pass's time. The rows
// of one key from several ranges are merged here, as one $group over every document gives.
#include "scan/IdRangePlanner.h"
#include "scan/internal/RangeQuery.h"
#include "scan/internal/TallyRun.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <thread>

namespace oe {

using namespace tallyreply;

namespace {

// {op: [a, b]} ($and, $or) of two conditions.
QByteArray combined(const char *op, const QByteArray &a, const QByteArray &b)
{
    BsonDocument out;
    bson_t list;
    bson_append_array_begin(out.get(), op, -1, &list);
    int i = 0;
    for (const QByteArray *part : {&a, &b})
        if (const auto doc = BsonDocument::fromBytes(*part)) {
            const std::string key = std::to_string(i++);
            BSON_APPEND_DOCUMENT(&list, key.c_str(), doc->get());
        }
    bson_append_array_end(out.get(), &list);
    return out.bytes();
}

// {$and: [a, b]}, or the one that is not empty.
QByteArray both(const QByteArray &a, const QByteArray &b)
{
    if (a.isEmpty() || b.isEmpty())
        return a.isEmpty() ? b : a;
    return combined("$and", a, b);
}

// An entry {r, i} of a row's f or w, copied (a bson_iter_t's alignment is no vector's).
struct Entry
{
    std::int64_t recordId = 0;
    BsonDocument entry;
};

Entry entryAt(const bson_iter_t *it)
{
    std::uint32_t length = 0;
    const std::uint8_t *data = nullptr;
    bson_iter_document(it, &length, &data);
    Entry out;
    bson_t doc;
    if (data && bson_init_static(&doc, data, length)) {
        out.entry = BsonDocument::adopt(bson_copy(&doc));
        bson_iter_t r;
        if (bson_iter_init_find(&r, &doc, "r"))
            out.recordId = bson_iter_as_int64(&r);
    }
    return out;
}

// Rows of one key from several ranges as the one row a $group over them all gives: n and the
// sums x<i> added, lo the least and hi the greatest record id, e true where each is, w joined,
// f the first TallyPipelines::kFirstDocuments by record id.
BsonDocument mergedRow(const std::vector<TallyRun::Reply> &rows)
{
    std::map<std::string, std::int64_t> sums;
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    bool explained = true, hasExplained = false;
    std::vector<Entry> firsts;
    std::vector<Entry> unexplained;
    for (const TallyRun::Reply &row : rows) {
        bson_iter_t it;
        bson_iter_init(&it, row.document);
        while (bson_iter_next(&it)) {
            const std::string key = bson_iter_key(&it);
            if (key == "lo" || key == "hi") {
                const std::int64_t r = bson_iter_as_int64(&it);
                lo = key == "lo" ? std::min(lo, r) : lo;
                hi = key == "hi" ? std::max(hi, r) : hi;
            } else if (key == "n" || (key.size() > 1 && key[0] == 'x')) {
                sums[key] += bson_iter_as_int64(&it);
            } else if (key == "e") {
                hasExplained = true;
                explained = explained && bson_iter_as_bool(&it);
            } else if ((key == "f" || key == "w") && BSON_ITER_HOLDS_ARRAY(&it)) {
                bson_iter_t entry;
                bson_iter_recurse(&it, &entry);
                while (bson_iter_next(&entry))
                    if (BSON_ITER_HOLDS_DOCUMENT(&entry))
                        (key == "w" ? unexplained : firsts).push_back(entryAt(&entry));
            }
        }
    }
    std::sort(firsts.begin(), firsts.end(),
              [](const Entry &a, const Entry &b) { return a.recordId < b.recordId; });
    if (firsts.size() > TallyPipelines::kFirstDocuments)
        firsts.resize(TallyPipelines::kFirstDocuments);
    BsonDocument out;
    bson_iter_t key;
    if (bson_iter_init_find(&key, rows.front().document, "_id"))
        bson_append_iter(out.get(), "_id", 3, &key);
    for (const auto &[name, sum] : sums)
        bson_append_int64(out.get(), name.c_str(), -1, sum);
    BSON_APPEND_INT64(out.get(), "lo", lo);
    BSON_APPEND_INT64(out.get(), "hi", hi);
    if (hasExplained)
        BSON_APPEND_BOOL(out.get(), "e", explained);
    bson_t list;
    const bool hasFirsts = !firsts.empty();
    if (hasFirsts) {
        BSON_APPEND_ARRAY_BEGIN(out.get(), "f", &list);
        for (std::size_t i = 0; i < firsts.size(); ++i)
            BSON_APPEND_DOCUMENT(&list, std::to_string(i).c_str(), firsts[i].entry.get());
        bson_append_array_end(out.get(), &list);
    }
    if (hasExplained) {
        BSON_APPEND_ARRAY_BEGIN(out.get(), "w", &list);
        for (std::size_t i = 0; i < unexplained.size(); ++i)
            BSON_APPEND_DOCUMENT(&list, std::to_string(i).c_str(), unexplained[i].entry.get());
        bson_append_array_end(out.get(), &list);
    }
    return out;
}

// The row's key (its _id) as bytes.
std::string keyOf(const bson_t *row)
{
    bson_iter_t it;
    if (!bson_iter_init_find(&it, row, "_id"))
        return {};
    return std::string(reinterpret_cast<const char *>(bsoniter::container(&it)) +
                           bsoniter::valueOffset(&it),
                       bsoniter::valueLength(&it));
}

} // namespace

bool TallyRun::planRanges()
{
    const int wanted = m_request.ranges > 0 ? m_request.ranges : ServerTally::kDefaultRanges;
    if (wanted < 2)
        return true;
    SourceError error;
    const auto plan = IdRangePlanner::plan(*m_connection, m_request.query, wanted, m_cancel, &error,
                                           &m_request.settings);
    if (!plan) {
        m_error = error;
        return false;
    }
    if (plan->isWhole() || plan->typedRanges() < 2)
        return true; // (one range: one pass)
    const int last = plan->typedRanges() - 1;
    for (int i = 0; i < last; ++i)
        m_ranges.push_back(RangeQuery::typedRange(*plan, i));
    // The _ids of other types than the cut's go with the last range.
    m_ranges.push_back(
        combined("$or", RangeQuery::typedRange(*plan, last), RangeQuery::leftover(*plan)));
    m_rangeConnections.resize(m_ranges.size());
    return true;
}

std::uint32_t TallyRun::sameServer(MongoConnection &connection) const
{
    mongoc_client_t *client = MongoDriver::client(connection);
    bson_error_t e;
    // (Selecting one makes the client discover the topology.)
    if (mongoc_server_description_t *any =
            mongoc_client_select_server(client, false, mongoc_client_get_read_prefs(client), &e))
        mongoc_server_description_destroy(any);
    std::size_t n = 0;
    mongoc_server_description_t **all = mongoc_client_get_server_descriptions(client, &n);
    std::uint32_t id = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (m_serverHost == mongoc_server_description_host(all[i])->host_and_port)
            id = mongoc_server_description_id(all[i]);
    mongoc_server_descriptions_destroy_all(all, n);
    return id;
}

bool TallyRun::atOnce(const std::vector<Pass> &passes, std::vector<Answer> *answers)
{
    answers->clear();
    answers->resize(passes.size());
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    const std::size_t count = std::min(m_rangeConnections.size(), passes.size());
    for (std::size_t w = 0; w < count; ++w)
        workers.emplace_back([this, w, &next, &passes, answers] {
            std::unique_ptr<MongoConnection> &connection = m_rangeConnections[w];
            for (std::size_t i = next++; i < passes.size() && !cancelled(); i = next++) {
                Answer &a = (*answers)[i];
                if (!connection &&
                    !(connection = MongoConnection::open(m_request.settings, &a.error)))
                    return;
                const std::uint32_t id = sameServer(*connection);
                if (id == 0) {
                    a.refusal =
                        QStringLiteral("a second connection does not reach the same server");
                    return;
                }
                const std::size_t most = passes[i].maxDocuments;
                bool capped = false;
                a.ok = aggregateOn(
                           *connection, id, passes[i].pipeline, passes[i].step,
                           [&](const bson_t *doc) {
                               a.documents.push_back(BsonDocument::adopt(bson_copy(doc)));
                               capped = most > 0 && a.documents.size() > most;
                               return !capped;
                           },
                           passes[i].natural, &a.error, &a.refusal) ||
                       capped;
            }
        });
    for (std::thread &worker : workers)
        worker.join();
    bool ok = true;
    for (Answer &a : *answers) {
        if (!a.refusal.isEmpty() && m_refusal.isEmpty())
            m_refusal = a.refusal;
        if (a.error.isError() && !m_error.isError())
            m_error = a.error;
        ok = ok && a.ok;
    }
    return ok && !cancelled();
}

bool TallyRun::runPasses(const std::vector<Pass> &passes, const std::vector<Visitor> &visits)
{
    if (m_rangeConnections.empty()) {
        for (std::size_t i = 0; i < passes.size(); ++i)
            if (!aggregate(
                    passes[i].pipeline, passes[i].step,
                    [&](const bson_t *doc) { return visits[i]({doc}); }, passes[i].natural))
                return false;
        return true;
    }
    std::vector<Answer> answers;
    if (!atOnce(passes, &answers))
        return false;
    for (std::size_t i = 0; i < answers.size(); ++i)
        for (const BsonDocument &d : answers[i].documents)
            if (!visits[i]({d.get()}))
                return false;
    return true;
}

bool TallyRun::aggregateRanged(const PipelineFor &pipelineFor, const QString &step,
                               const Visitor &visit, bool natural, bool mergeRows,
                               std::size_t maxDocuments, bool place)
{
    if (m_ranges.empty() && !place)
        return aggregate(
            pipelineFor(m_scope), step, [&](const bson_t *doc) { return visit({doc}); }, natural);
    std::vector<BsonDocument> rows;
    if (m_ranges.empty()) {
        if (!aggregate(
                pipelineFor(m_scope), step,
                [&](const bson_t *doc) {
                    rows.push_back(BsonDocument::adopt(bson_copy(doc)));
                    return true;
                },
                natural))
            return false;
    } else {
        // (Each range by its _id condition: the planner reads the _id index; rows to place
        // read in natural order, each range's first documents its first in the collection.)
        std::vector<Pass> passes;
        for (const QByteArray &range : m_ranges) {
            TallyPipelines::Scope scope = m_scope;
            scope.filter = both(m_scope.filter, range);
            passes.push_back({pipelineFor(scope), step, place, maxDocuments});
        }
        std::vector<Answer> answers;
        if (!atOnce(passes, &answers))
            return false;
        for (Answer &a : answers)
            for (BsonDocument &d : a.documents)
                rows.push_back(std::move(d));
    }
    if (place && !placeRows(rows))
        return false;
    if (!mergeRows) {
        for (const BsonDocument &d : rows)
            if (!visit({d.get()}))
                return false;
        return true;
    }
    std::map<std::string, std::vector<Reply>> byKey;
    for (const BsonDocument &d : rows)
        byKey[keyOf(d.get())].push_back({d.get()});
    for (const auto &[key, rows] : byKey) {
        if (rows.size() == 1) {
            if (!visit(rows.front()))
                return false;
            continue;
        }
        const BsonDocument merged = mergedRow(rows);
        if (!visit({merged.get()}))
            return false;
    }
    return true;
}

} // namespace oe
