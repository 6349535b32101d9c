// TallyRun's candidates pass (ServerTally): the documents the tails may keep, their positions,
// and the shape's examples and tails placed.
#include "scan/internal/TallyRun.h"

#include <algorithm>

namespace oe {

using namespace tallyreply;

namespace {
// Ties many documents share come from a pass of their own, which stops once it has them; a
// few are cheaper in the candidates pass, whose scan runs anyway.
bool tiesApart(const TailFence &fence)
{
    return TallyPipelines::lazyTies(fence.tiesCut(), fence.atCount(), fence.tied());
}
} // namespace

// Each tail's fence (TailFence); the first value it cannot keep is passed over.
TallyPipelines::Fence TallyRun::fenceOf(const Tail &t)
{
    if (const auto over = t.fence.passOver())
        m_builder.passOver(t.id, *over);
    return {t.id, t.fence.atLeast(), t.fence.tied(), tiesApart(t.fence), t.fence.above()};
}

void TallyRun::lazyTies(std::vector<TallyPipelines::Fence> &fences, std::vector<Pass> &passes,
                        std::vector<Visitor> &visits)
{
    for (TallyPipelines::Fence &f : fences) {
        if (!f.lazyTies)
            continue;
        passes.push_back({TallyPipelines::tied(*m_plan, m_scope, f),
                          QStringLiteral("finding the first documents at a tail's last value"),
                          true});
        visits.push_back([this](Reply reply) {
            std::int64_t r = 0;
            if (!recordIdAt(reply.document, "r", &r)) {
                m_refusal = QStringLiteral("its record ids are no integers (a clustered "
                                           "collection)");
                return false;
            }
            m_tied.push_back({r, BsonDocument::adopt(bson_copy(reply.document)), false});
            return true;
        });
    }
    // A fence with nothing above it and its ties found needs nothing of the candidates pass.
    fences.erase(
        std::remove_if(fences.begin(), fences.end(),
                       [](const TallyPipelines::Fence &f) { return f.lazyTies && f.above == 0; }),
        fences.end());
}

// The shape's candidates: by the rows' $type tuples, the server's matcher picks them.
void TallyRun::shapeLists(std::vector<Pass> &passes, std::vector<Visitor> &visits)
{
    if (!m_shape)
        return;
    const auto lists = m_shape->lists(m_shape->fences());
    auto keep = [this](Reply reply) {
        std::int64_t r = 0;
        if (recordIdAt(reply.document, "r", &r))
            m_tied.push_back({r, BsonDocument::adopt(bson_copy(reply.document)), true});
        return true;
    };
    bool any = false;
    for (const TallyPipelines::ShapeList &l : lists) {
        any = any || !l.above.empty() || (!l.fence.lazyTies && !l.at.empty());
        if (l.fence.lazyTies && !l.at.empty()) {
            passes.push_back(
                {TallyPipelines::shapeTied(*m_request.shape, m_scope, l),
                 QStringLiteral("finding the first documents at a shape tail's last value"), true});
            visits.push_back(keep);
        }
    }
    if (!any)
        return;
    passes.push_back({TallyPipelines::shapeCandidates(*m_request.shape, m_scope, lists),
                      QStringLiteral("finding the documents with the most fields, the deepest "
                                     "and those with the most keys in an object"),
                      readsInNaturalOrder()});
    visits.push_back(keep);
}

bool TallyRun::candidates()
{
    // Every document named by the rows: the irregular ones alone first, for their places.
    if (m_knowing && !irregular())
        return false;
    if (offerKnown())
        return true;
    std::vector<TallyPipelines::Fence> fences;
    std::uint64_t expected = 0;
    for (const Tail &t : m_tails)
        if (!t.fence.isEmpty()) {
            fences.push_back(fenceOf(t));
            expected += std::min<std::uint64_t>(t.fence.capacity(), m_inScope) + t.fence.kept();
        }
    if (m_shape)
        expected += m_shape->expectedCandidates();
    // The server gathers them in one document (a $facet): within its 16 MiB, or a read of
    // every measurement is the way.
    const std::uint64_t entryBytes = 64 + 16 * m_plan->arrayNodes().size();
    if (expected * entryBytes > kMaxCandidateBytes) {
        m_refusal = QStringLiteral("the tails' candidates would not fit in one reply");
        return false;
    }
    // The ties' passes, the shape's and the candidates' at once: only where the record ids
    // have gaps does the candidates' pass wait for the others (it places what they found).
    std::vector<Pass> passes;
    std::vector<Visitor> visits;
    // The irregular documents' pass first (its visitor takes them to be read whole before the
    // candidates' are seen); the passes after it leave them out.
    Visitor irregularVisit;
    if (auto pass = irregularPass(&irregularVisit)) {
        passes.push_back(std::move(*pass));
        visits.push_back(std::move(irregularVisit));
    }
    lazyTies(fences, passes, visits);
    shapeLists(passes, visits);
    const bool contiguous = this->contiguous();
    auto candidatesPass = [&](const std::vector<std::int64_t> &whole) {
        passes.push_back({TallyPipelines::candidates(*m_plan, m_scope, fences, whole, !contiguous),
                          QStringLiteral("finding the largest documents and longest arrays"),
                          false});
        visits.push_back(
            [this, contiguous](Reply reply) { return candidate(reply.document, contiguous); });
    };
    if (contiguous && !fences.empty())
        candidatesPass({});
    if (!runPasses(passes, visits) || !irregularFound())
        return false;
    if (!contiguous) {
        std::vector<std::int64_t> whole;
        for (const auto &[r, id] : m_whole)
            whole.push_back(r);
        if (m_shape)
            for (const std::int64_t r : m_shape->toPlace())
                whole.push_back(r);
        for (const Tied &t : m_tied)
            whole.push_back(t.recordId);
        std::sort(whole.begin(), whole.end());
        whole.erase(std::unique(whole.begin(), whole.end()), whole.end());
        passes.clear();
        visits.clear();
        if (!fences.empty() || !whole.empty())
            candidatesPass(whole);
        if (!runPasses(passes, visits))
            return false;
    }
    // The documents of the ties' own passes, now placed.
    for (const Tied &t : m_tied) {
        std::optional<std::uint64_t> at;
        if (contiguous)
            at = std::uint64_t(t.recordId - m_lo);
        else if (const auto p = m_placed.find(t.recordId); p != m_placed.end())
            at = p->second;
        if (!at)
            continue;
        if (!t.shaped)
            take(t.entry.get(), t.recordId, *at);
        else if (!m_whole.count(t.recordId))
            m_shape->candidate(t.entry.get(), t.recordId);
    }
    m_tied.clear();
    return true;
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
    take(entry, r, position);
    return true;
}

// A candidate at its position: offered to the tails (a document read whole offers itself).
void TallyRun::take(const bson_t *entry, std::int64_t r, std::uint64_t position)
{
    // (A document the candidates pass and a ties' pass both sent is taken once.)
    if (!m_taken.insert(r).second)
        return;
    if (const auto w = m_whole.find(r); w != m_whole.end()) {
        m_wholeAt[w->second] = position;
        return;
    }
    offer(entry, position);
    if (m_shape)
        m_shape->candidate(entry, r);
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

} // namespace oe
