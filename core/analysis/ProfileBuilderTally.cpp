// ProfileBuilder's side of a scan counted in the cluster (ServerTally): documents the server
// measured alike arrive as one tally, counted as many; the tails get the few documents they may
// keep by offers, and the rest as passed over.
#include "analysis/ProfileBuilder.h"

#include "analysis/internal/FieldNode.h"
#include "analysis/internal/VersionWatch.h"
#include "bson/BsonTypes.h"
#include "bson/DocumentId.h"

namespace oe {

void ProfileBuilder::addTallied(const MeasureReply &reply, std::uint32_t idTypeBit,
                                std::uint32_t idBytes, std::uint64_t times)
{
    if (times == 0 || !m_plan)
        return;
    ++m_sequence;
    m_arrayNodes.clear();
    m_documents += times;
    m_sizes.add(reply.size, times);
    if (idTypeBit != 0) {
        FieldNode *id = m_root->child("_id", m_limits.maxChildrenPerField);
        id->lastDocument = m_sequence;
        id->presentDocuments += times;
        id->typeMask |= idTypeBit;
        id->values += times;
        id->bytes += std::uint64_t(idBytes) * times;
    }
    for (std::size_t i = 0; i < reply.records.size() && i < m_summaryNodes.size(); ++i)
        addRecord(reply.records[i], m_plan->summaries[i], m_summaryNodes[i], times);
    // A node that held an array has a tail, as after a walk's document (finishDocument).
    for (FieldNode *node : m_arrayNodes)
        if (!node->tail)
            node->tail = std::make_unique<CandidateTail>(m_limits.perPathCapacity);
    m_arrayNodes.clear();
}

FieldNode *ProfileBuilder::arrayNode(int node)
{
    if (!m_plan || node < 0)
        return nullptr;
    const auto nodes = m_plan->arrayNodes();
    if (std::size_t(node) >= nodes.size())
        return nullptr;
    const MeasurePlan::ArrayNode &n = nodes[std::size_t(node)];
    FieldNode *summary = m_summaryNodes[std::size_t(n.summary)];
    if (n.child < 0)
        return summary;
    return summary->child(
        m_plan->summaries[std::size_t(n.summary)].children[std::size_t(n.child)].name,
        m_limits.maxChildrenPerField);
}

CandidateTail *ProfileBuilder::tallyTail(int tail)
{
    if (tail == kLargestTail)
        return &m_largestDocuments;
    if (tail == kLongestTail)
        return &m_longestArrays;
    FieldNode *node = arrayNode(tail);
    if (!node)
        return nullptr;
    if (!node->tail)
        node->tail = std::make_unique<CandidateTail>(m_limits.perPathCapacity);
    return node->tail.get();
}

void ProfileBuilder::offerTallied(int tail, std::uint64_t value, std::uint64_t docIndex,
                                  std::uint64_t size, const std::string &rawId, int node)
{
    CandidateTail *into = tallyTail(tail);
    if (!into)
        return;
    std::string path;
    if (tail == kLongestTail) {
        FieldNode *at = arrayNode(node);
        if (!at)
            return;
        path = at->path();
    }
    if (into->wants(value, docIndex))
        into->offer({value, docIndex, size, rawId, std::move(path)});
    else
        into->offer({value, docIndex, size, {}, {}});
}

void ProfileBuilder::passOver(int tail, std::uint64_t value)
{
    if (CandidateTail *into = tallyTail(tail))
        into->passOver(value);
}

} // namespace oe

namespace oe {

void ProfileBuilder::countShape()
{
    m_shapeCounted = true;
    m_examplesInAnyOrder = true;
    m_versions->setExamplesInAnyOrder(true);
}

void ProfileBuilder::addShaped(const MeasureReply &reply, const std::uint8_t *skeleton,
                               std::uint32_t length, std::uint64_t times)
{
    if (times == 0)
        return;
    m_documents += times;
    m_sizes.add(reply.size, times);
    walkSkeleton(skeleton, length, times, 0, {});
}

void ProfileBuilder::fixBytes(const std::vector<std::string> &segments, std::int64_t bytes,
                              std::int64_t elementBytes, bool upward)
{
    FieldNode *node = nodeAt(segments);
    node->elementBytes = std::uint64_t(std::int64_t(node->elementBytes) + elementBytes);
    for (; node && node->parent; node = upward ? node->parent : nullptr)
        node->bytes = std::uint64_t(std::int64_t(node->bytes) + bytes);
}

void ProfileBuilder::exampleShaped(const std::uint8_t *skeleton, std::uint32_t length,
                                   std::uint64_t docIndex, const std::string &rawId)
{
    walkSkeleton(skeleton, length, 0, docIndex, rawId);
}

CandidateTail *ProfileBuilder::shapeTail(int tail, const std::vector<std::string> &object)
{
    if (tail == kFieldsTail)
        return &m_shape.mostFields;
    if (tail == kDepthTail)
        return &m_shape.deepest;
    return tail == kKeysTail ? &nodeAt(object)->shape.mostKeys : nullptr;
}

void ProfileBuilder::offerShape(int tail, const std::vector<std::string> &object,
                                std::uint64_t value, std::uint64_t docIndex, std::uint64_t size,
                                const std::string &rawId)
{
    CandidateTail *into = shapeTail(tail, object);
    if (!into)
        return;
    if (into->wants(value, docIndex))
        into->offer({value, docIndex, size, rawId, {}});
    else
        into->offer({value, docIndex, size, {}, {}});
}

void ProfileBuilder::passOverShape(int tail, const std::vector<std::string> &object,
                                   std::uint64_t value)
{
    if (CandidateTail *into = shapeTail(tail, object))
        into->passOver(value);
}

} // namespace oe
