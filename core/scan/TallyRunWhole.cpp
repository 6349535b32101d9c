// TallyRun's documents read whole: those the schema rejects (the unseen pass), those of the
// tallies' rows whose $type tuples hold a type the shape does not know (irregular), and the
// reading itself, each document in its place.
#include "scan/internal/TallyRun.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace oe {

using namespace tallyreply;

bool TallyRun::takeWhole(const bson_t *entry, bool seen)
{
    bson_iter_t id;
    std::int64_t r = 0;
    if (!recordIdAt(entry, "r", &r)) {
        m_refusal = QStringLiteral("its record ids are no integers (a clustered collection)");
        return false;
    }
    m_whole[r] = bson_iter_init_find(&id, entry, "_id") ? rawIdAt(&id) : std::string();
    if (seen)
        see(r);
    ++m_unseen;
    return m_whole.size() <= ServerTally::kMaxReadWhole;
}

bool TallyRun::unseen()
{
    if (m_scope.schema.isEmpty())
        return true;
    return aggregateRanged(
        TallyPipelines::unseen,
        QStringLiteral("looking for documents with top-level fields the discovery "
                       "sample did not see"),
        [&](Reply reply) { return takeWhole(reply.document); }, false, false,
        ServerTally::kMaxReadWhole);
}

void TallyRun::excludeById()
{
    if (m_whole.size() > ServerTally::kMaxExcluded ||
        std::any_of(m_whole.begin(), m_whole.end(), [](const auto &w) { return w.second.empty(); }))
        return;
    BsonDocument filter;
    bson_t condition, list;
    BSON_APPEND_DOCUMENT_BEGIN(filter.get(), "_id", &condition);
    BSON_APPEND_ARRAY_BEGIN(&condition, "$nin", &list);
    std::size_t i = 0;
    for (const auto &[r, raw] : m_whole)
        bsonraw::append(&list, std::to_string(i++).c_str(), -1, bsonraw::fromDocumentId(raw));
    bson_append_array_end(&condition, &list);
    bson_append_document_end(filter.get(), &condition);
    m_scope.regular = filter.bytes();
}

// The documents of rows with a type the shape does not know, found by those types among the
// documents the schema accepts (its rows were counted in the scope: see() not again): as many
// as those rows counted, else the collection changed between the passes. The passes after
// leave them out by those types, as they do the schema's rejects. One pass, not one per range:
// the matcher's $type is cheap next to reading the collection, which each range in natural
// order would do whole.
std::optional<TallyRun::Pass> TallyRun::irregularPass(Visitor *visit)
{
    if (m_unknownTypes.empty() || m_irregularDone)
        return std::nullopt;
    m_irregularDone = true;
    const QByteArray condition = TallyPipelines::irregularTypes(
        *m_request.shape, {m_unknownTypes.begin(), m_unknownTypes.end()});
    Pass pass{TallyPipelines::irregular(m_scope, condition),
              QStringLiteral("looking for documents with types the discovery sample did not see"),
              readsInNaturalOrder()};
    *visit = [this](Reply reply) {
        ++m_irregularFound;
        return takeWhole(reply.document, false);
    };
    // {$and: [the scope's regular filter (or its schema), {$nor: [those types]}]}
    BsonDocument regular;
    bson_t list, nor, any;
    BSON_APPEND_ARRAY_BEGIN(regular.get(), "$and", &list);
    if (const auto before =
            BsonDocument::fromBytes(m_scope.regular.isEmpty() ? m_scope.schema : m_scope.regular))
        BSON_APPEND_DOCUMENT(&list, "0", before->get());
    BSON_APPEND_DOCUMENT_BEGIN(&list, "1", &nor);
    BSON_APPEND_ARRAY_BEGIN(&nor, "$nor", &any);
    if (const auto types = BsonDocument::fromBytes(condition))
        BSON_APPEND_DOCUMENT(&any, "0", types->get());
    bson_append_array_end(&nor, &any);
    bson_append_document_end(&list, &nor);
    bson_append_array_end(regular.get(), &list);
    m_scope.regular = regular.bytes();
    return pass;
}

bool TallyRun::irregularFound()
{
    if (m_irregularFound == m_irregular)
        return true;
    m_refusal = QStringLiteral("the collection changed while it was counted (%1 documents of "
                               "types the discovery sample did not see, then %2)")
                    .arg(m_irregular)
                    .arg(m_irregularFound);
    return false;
}

bool TallyRun::irregular()
{
    Visitor visit;
    const auto pass = irregularPass(&visit);
    if (!pass)
        return true;
    return aggregate(
               pass->pipeline, pass->step, [&](const bson_t *doc) { return visit({doc}); },
               pass->natural) &&
           m_refusal.isEmpty() && irregularFound();
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

} // namespace oe
