#include "scan/ShapeTally.h"

#include "analysis/FieldShape.h"
#include "bson/BsonTypes.h"
#include "scan/internal/TallyReply.h"

#include <algorithm>

namespace oe {

using namespace tallyreply;

namespace {

QByteArray tailField(int id)
{
    if (id == TallyPipelines::kFieldsTail)
        return "fc";
    if (id == TallyPipelines::kDepthTail)
        return "dp";
    return "k" + QByteArray::number(id);
}

} // namespace

ShapeTally::ShapeTally(std::shared_ptr<const ShapePlan> shape, const ProfileBuilder::Limits &limits,
                       ProfileBuilder &builder)
    : m_shape(std::move(shape)), m_builder(builder)
{
    m_builder.countShape();
    m_tails.push_back({TallyPipelines::kFieldsTail,
                       TailFence(limits.shapeDocumentsCapacity, CandidateTail::kNoThreshold)});
    m_tails.push_back({TallyPipelines::kDepthTail,
                       TailFence(limits.shapeDocumentsCapacity, CandidateTail::kNoThreshold)});
    for (const int object : m_shape->objectPaths())
        m_tails.push_back(
            {object, TailFence(FieldShape::kTailCapacity, CandidateTail::kNoThreshold)});
}

bool ShapeTally::typesOf(const bson_t *key, std::vector<std::uint32_t> *types)
{
    bson_iter_t it, type;
    if (!bson_iter_init_find(&it, key, "k") || !BSON_ITER_HOLDS_ARRAY(&it) ||
        !bson_iter_recurse(&it, &type))
        return false;
    while (bson_iter_next(&type)) {
        const char *alias = BSON_ITER_HOLDS_UTF8(&type) ? bson_iter_utf8(&type, nullptr) : "";
        types->push_back(BsonTypes::bitOfAlias(alias));
    }
    return true;
}

std::vector<std::pair<int, std::uint32_t>> ShapeTally::unknownTypes(const bson_t *key) const
{
    std::vector<std::uint32_t> types;
    std::vector<std::pair<int, std::uint32_t>> out;
    if (!typesOf(key, &types))
        return out;
    for (std::size_t i = 0; i < types.size() && i < m_shape->paths.size(); ++i)
        if (types[i] != 0 && !m_shape->paths[i].inElements && !m_shape->paths[i].holds(types[i]))
            out.emplace_back(int(i), types[i]);
    return out;
}

bool ShapeTally::count(const bson_t *row, const bson_t *key, const MeasureReply &reply,
                       std::uint32_t idTypeBit, std::uint64_t idBytes, std::uint64_t times,
                       QString *problem)
{
    bson_iter_t it;
    std::vector<std::uint32_t> types;
    if (!typesOf(key, &types)) {
        *problem = QStringLiteral("a tally without its types");
        return false;
    }
    // (Past the paths: whether each array of objects has elements, for the tails.)
    const std::vector<std::uint32_t> pathTypes(
        types.begin(),
        types.begin() + std::ptrdiff_t(std::min(types.size(), m_shape->paths.size())));
    const auto skeleton = ShapeSkeleton::build(*m_shape, pathTypes, key, idTypeBit, reply, problem);
    if (!skeleton)
        return false;
    const auto *data = reinterpret_cast<const std::uint8_t *>(skeleton->bytes.constData());
    const auto length = std::uint32_t(skeleton->bytes.size());
    m_builder.addShaped(reply, data, length, times);
    fix(*skeleton, row, reply, idTypeBit, idBytes, times);
    std::vector<std::uint64_t> &values = m_tuples[types];
    values.clear();
    for (Tail &t : m_tails) {
        const std::uint64_t value = t.id == TallyPipelines::kFieldsTail  ? skeleton->fields
                                    : t.id == TallyPipelines::kDepthTail ? skeleton->depth
                                    : types[std::size_t(t.id)] == BsonTypes::kDocumentBit
                                        ? skeleton->keys[std::size_t(t.id)]
                                        : 0;
        // (A document without the object is offered nothing there.)
        const bool counted = t.id < 0 || types[std::size_t(t.id)] == BsonTypes::kDocumentBit;
        if (counted)
            t.fence.count(value, times);
        values.push_back(counted ? value : 0);
    }
    // The row's first documents: its examples. Where they are all its documents, each is
    // known with its figures (takeKnown).
    if (!bson_iter_init_find(&it, row, "f")) {
        *problem = QStringLiteral("a tally without its first documents");
        return false;
    }
    const auto firsts = firstDocuments(row);
    m_skeletons.push_back(skeleton->bytes);
    for (const auto &[r, rawId] : firsts)
        m_firsts.push_back({r, rawId, m_skeletons.size() - 1});
    m_knowing = m_knowing && firsts.size() == times && m_known.size() < kMaxKnown;
    if (!m_knowing)
        m_known.clear();
    for (const auto &[r, rawId] : m_knowing ? firsts : decltype(firsts)())
        m_known.push_back({r, rawId, reply.size, values});
    return true;
}

// The bytes the documents hold past their skeleton's: their strings' and binaries' (the row's
// sums), their arrays' (its records) and their _id's.
void ShapeTally::fix(const ShapeSkeleton &skeleton, const bson_t *row, const MeasureReply &reply,
                     std::uint32_t idTypeBit, std::uint64_t idBytes, std::uint64_t times)
{
    const auto n = std::int64_t(times);
    if (idTypeBit != 0)
        m_builder.fixBytes({"_id"},
                           n * (std::int64_t(idBytes) - std::int64_t(skeleton.idElementBytes)), 0);
    for (const int v : m_shape->variablePaths()) {
        std::uint64_t extra = 0;
        // (A field of arrays' elements: its array's own bytes are the records'; arrays there
        // hold the bytes as their elements' too.)
        const ShapePlan::Path &p = m_shape->paths[std::size_t(v)];
        if (numberAt(row, ("x" + std::to_string(v)).c_str(), &extra) && extra > 0)
            m_builder.fixBytes(p.segments, std::int64_t(extra),
                               p.holds(BsonTypes::kArrayBit) ? std::int64_t(extra) : 0,
                               !p.inElements);
    }
    for (std::size_t i = 0; i < m_shape->paths.size(); ++i) {
        const ShapePlan::Path &p = m_shape->paths[i];
        if (p.summary < 0 || skeleton.arrayValueBytes[i] == 0)
            continue;
        const MeasureReply::Record &r = reply.records[std::size_t(p.summary)];
        const auto real = std::int64_t(r.elementBytes(p.segments.back()));
        const auto realValue = std::int64_t(r.wrapped) - 8;
        m_builder.fixBytes(p.segments, n * (real - std::int64_t(skeleton.elementBytes[i])),
                           n * (realValue - std::int64_t(skeleton.arrayValueBytes[i])));
    }
}

int ShapeTally::builderTail(const Tail &t) const
{
    return t.id == TallyPipelines::kFieldsTail  ? ProfileBuilder::kFieldsTail
           : t.id == TallyPipelines::kDepthTail ? ProfileBuilder::kDepthTail
                                                : ProfileBuilder::kKeysTail;
}

const std::vector<std::string> &ShapeTally::objectOf(const Tail &t) const
{
    static const std::vector<std::string> none;
    return t.id >= 0 ? m_shape->paths[std::size_t(t.id)].segments : none;
}

std::vector<TallyPipelines::Fence> ShapeTally::fences()
{
    std::vector<TallyPipelines::Fence> out;
    for (const Tail &t : m_tails) {
        if (t.fence.isEmpty())
            continue;
        if (const auto over = t.fence.passOver())
            m_builder.passOverShape(builderTail(t), objectOf(t), *over);
        out.push_back(
            {t.id, t.fence.atLeast(), t.fence.tied(),
             TallyPipelines::lazyTies(t.fence.tiesCut(), t.fence.atCount(), t.fence.tied()),
             t.fence.above()});
    }
    return out;
}

std::vector<TallyPipelines::ShapeList>
ShapeTally::lists(const std::vector<TallyPipelines::Fence> &fences) const
{
    std::vector<TallyPipelines::ShapeList> out;
    for (const TallyPipelines::Fence &f : fences) {
        const auto tail = std::find_if(m_tails.begin(), m_tails.end(),
                                       [&](const Tail &t) { return t.id == f.tail; });
        const auto at = std::size_t(tail - m_tails.begin());
        TallyPipelines::ShapeList list{f, {}, {}};
        for (const auto &[types, values] : m_tuples) {
            const std::uint64_t v = at < values.size() ? values[at] : 0;
            if (v > 0 && v > f.atLeast)
                list.above.push_back(types);
            else if (v > 0 && v == f.atLeast)
                list.at.push_back(types);
        }
        out.push_back(std::move(list));
    }
    return out;
}

std::uint64_t ShapeTally::expectedCandidates() const
{
    std::uint64_t n = 0;
    for (const Tail &t : m_tails)
        if (!t.fence.isEmpty())
            n += t.fence.capacity() + t.fence.kept();
    return n + m_firsts.size();
}

void ShapeTally::candidate(const bson_t *entry, std::int64_t recordId)
{
    bson_iter_t id;
    if (!bson_iter_init_find(&id, entry, "_id"))
        return;
    bson_iter_t h;
    std::uint32_t length = 0;
    const std::uint8_t *data = nullptr;
    if (!bson_iter_init_find(&h, entry, "h") || !BSON_ITER_HOLDS_DOCUMENT(&h) ||
        !m_taken.insert(recordId).second)
        return;
    bson_iter_document(&h, &length, &data);
    bson_t values;
    if (!bson_init_static(&values, data, length))
        return;
    Entry e{recordId, rawIdAt(&id), 0, {}};
    numberAt(entry, "s", &e.size);
    for (const Tail &t : m_tails) {
        std::uint64_t value = 0;
        numberAt(&values, tailField(t.id).constData(), &value);
        e.values.push_back(value);
    }
    m_entries.push_back(std::move(e));
}

bool ShapeTally::takeKnown()
{
    if (!m_knowing)
        return false;
    for (Entry &e : m_known)
        if (m_taken.insert(e.recordId).second)
            m_entries.push_back(std::move(e));
    m_known.clear();
    return true;
}

std::vector<std::int64_t> ShapeTally::toPlace() const
{
    std::vector<std::int64_t> out;
    for (const First &f : m_firsts)
        out.push_back(f.recordId);
    for (const Entry &e : m_entries)
        out.push_back(e.recordId);
    return out;
}

void ShapeTally::finish(const std::function<std::optional<std::uint64_t>(std::int64_t)> &positionOf,
                        const std::unordered_map<std::int64_t, std::string> &whole)
{
    for (const First &f : m_firsts)
        if (const auto at = positionOf(f.recordId)) {
            const QByteArray &s = m_skeletons[f.skeleton];
            m_builder.exampleShaped(reinterpret_cast<const std::uint8_t *>(s.constData()),
                                    std::uint32_t(s.size()), *at, f.rawId);
        }
    for (const Entry &e : m_entries) {
        const auto at = positionOf(e.recordId);
        if (!at || whole.count(e.recordId))
            continue;
        for (std::size_t i = 0; i < m_tails.size(); ++i)
            if (e.values[i] > 0)
                m_builder.offerShape(builderTail(m_tails[i]), objectOf(m_tails[i]), e.values[i],
                                     *at, e.size, e.rawId);
    }
}

} // namespace oe
