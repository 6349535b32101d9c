#pragma once

#include "analysis/CollectionProfile.h"
#include "analysis/VersionTally.h"
#include "measure/MeasurePlan.h"
#include "measure/MeasureReply.h"
#include "source/SourceError.h"
#include "stats/CandidateTail.h"
#include "stats/Distribution.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace oe {

struct FieldNode;
class VersionWatch;

// Walks documents (every field, into sub-documents and array elements) and accumulates a
// CollectionProfile. One builder per worker thread; builders merge exactly.
class ProfileBuilder
{
public:
    struct Limits
    {
        std::size_t largestDocumentsCapacity = 16384;
        std::size_t longestArraysCapacity = 16384;
        std::size_t perPathCapacity = 4096;
        // Thresholds known before the scan: documents above them are always kept, so the
        // outlier lists for absolute thresholds are exact whatever the capacities.
        std::uint64_t keepDocumentsLargerThan = CandidateTail::kNoThreshold;
        std::uint64_t keepArraysLongerThan = CandidateTail::kNoThreshold;
        std::size_t maxChildrenPerField = 1000;
        int maxDepth = 200;
        // Shape: strings and binaries larger than this are big scalars; the documents kept
        // by their field count and by their depth.
        std::uint64_t bigScalarBytes = DocumentShape::kDefaultBigScalarBytes;
        std::size_t shapeDocumentsCapacity = 1024;
        // The top-level fields that may hold a schema version (VersionTally).
        std::vector<std::string> versionFields = VersionTally::knownNames();
    };

    explicit ProfileBuilder(const Limits &limits);
    ProfileBuilder();
    ~ProfileBuilder();
    ProfileBuilder(ProfileBuilder &&) noexcept;
    ProfileBuilder &operator=(ProfileBuilder &&) noexcept;

    // Analyses one document. On malformed BSON returns false and describes the problem in
    // `fault` (message, byte offset within the document, field path); nothing of that document
    // is counted in the document totals.
    bool addDocument(const std::uint8_t *data, std::uint32_t length, std::uint64_t docIndex,
                     SourceError *fault);
    // Server-side measurement: the documents come as MeasureProjection made them (each one's
    // size, _id and records of the plan's arrays), or read whole (MeasureReply::whole). The
    // figures of sizes and arrays equal a walk of the documents themselves; the profile holds
    // the _id, the plan's arrays, their children's arrays (count and lengths only:
    // FieldProfile::lengthsOnly) and arrays found in documents read whole, not the other
    // fields, which the server does not measure (takeProfile). Set before any document.
    void measureWith(std::shared_ptr<const MeasurePlan> plan);
    bool addMeasured(const std::uint8_t *data, std::uint32_t length, std::uint64_t docIndex,
                     SourceError *fault);
    // Counted in the cluster (ServerTally): `times` documents the server measured alike
    // (`reply`; an _id of the type `idTypeBit` whose element takes `idBytes`, none when 0),
    // counted as addMeasured counts each, but offered to no tail: offerTallied does that for
    // the few a tail may keep, passOver for the rest.
    void addTallied(const MeasureReply &reply, std::uint32_t idTypeBit, std::uint32_t idBytes,
                    std::uint64_t times);
    // Which tail of a tallied scan an offer is for: the largest documents, the longest arrays,
    // or the documents by their longest array at node N of MeasurePlan::arrayNodes().
    static constexpr int kLargestTail = -2;
    static constexpr int kLongestTail = -1;
    // Offers a tallied document to one tail: `value` is its size, its longest array (`node`
    // saying where) or its longest array at the tail's node.
    void offerTallied(int tail, std::uint64_t value, std::uint64_t docIndex, std::uint64_t size,
                      const std::string &rawId, int node = -1);
    // Tells a tail a tallied document it was not offered had `value` (so it does not claim to
    // be complete below it).
    void passOver(int tail, std::uint64_t value);
    // Counted in the cluster with the shape (ServerTally and a ShapePlan). Call countShape()
    // before any document: the profile then holds every field's shape, as a walk's does, and
    // examples may come out of order (the earliest are kept).
    void countShape();
    // `times` regular documents the server measured alike (`reply`) whose fields are those of
    // `skeleton` (a document with their types and empty values, its arrays as long as theirs):
    // it is walked once for them all, its sizes counted as addTallied counts them. The bytes
    // their values hold past the skeleton's come by fixBytes.
    void addShaped(const MeasureReply &reply, const std::uint8_t *skeleton, std::uint32_t length,
                   std::uint64_t times);
    // Adds `bytes` to the values at `segments` (and, `upward`, to the objects holding them),
    // and `elementBytes` to its arrays' elements.
    void fixBytes(const std::vector<std::string> &segments, std::int64_t bytes,
                  std::int64_t elementBytes, bool upward = true);
    // One document of those addShaped counted, as an example of what `skeleton` shows.
    void exampleShaped(const std::uint8_t *skeleton, std::uint32_t length, std::uint64_t docIndex,
                       const std::string &rawId);
    // The shape's tails of a tallied scan: the documents by their fields (kFieldsTail), their
    // depth (kDepthTail), or the keys of their object at `object` (kKeysTail).
    static constexpr int kFieldsTail = -3;
    static constexpr int kDepthTail = -4;
    static constexpr int kKeysTail = -5;
    void offerShape(int tail, const std::vector<std::string> &object, std::uint64_t value,
                    std::uint64_t docIndex, std::uint64_t size, const std::string &rawId);
    void passOverShape(int tail, const std::vector<std::string> &object, std::uint64_t value);
    // The document size a measurement carries (0 when it has none), for progress.
    static std::uint32_t measuredSize(const std::uint8_t *data, std::uint32_t length);
    void merge(ProfileBuilder &&other);

    std::uint64_t documents() const { return m_documents; }
    CollectionProfile takeProfile();

private:
    struct Walk; // one document's walk, defined next to libbson in the .cpp
    void finishDocument(int idType, const std::uint8_t *idValue, std::size_t idLength,
                        std::uint32_t length, std::uint64_t docIndex, const Walk *walk);
    void countKeys(FieldNode *node, std::uint64_t keys, std::uint64_t times = 1);
    CandidateTail *shapeTail(int tail, const std::vector<std::string> &object);
    // Walks `skeleton` for `weight` documents (0: for its examples only).
    bool walkSkeleton(const std::uint8_t *skeleton, std::uint32_t length, std::uint64_t weight,
                      std::uint64_t docIndex, const std::string &rawId);
    void countBigValue(FieldNode *node, std::uint64_t bytes);
    void resetShape();
    void countArray(FieldNode *node, std::uint64_t length, std::uint64_t times = 1);
    void addRecord(const MeasureReply::Record &record, const MeasurePlan::Summary &summary,
                   FieldNode *node, std::uint64_t times = 1);
    FieldNode *arrayNode(int node);
    CandidateTail *tallyTail(int tail);
    bool addWhole(const std::uint8_t *data, std::uint32_t length, std::uint64_t docIndex,
                  SourceError *fault);
    FieldNode *nodeAt(const std::vector<std::string> &segments);

    Limits m_limits;
    std::unique_ptr<FieldNode> m_root;
    std::uint64_t m_documents = 0;
    std::uint64_t m_sequence = 0; // 1-based number of the document being walked
    Distribution m_sizes;
    CandidateTail m_largestDocuments;
    CandidateTail m_longestArrays;
    std::vector<FieldNode *> m_arrayNodes;  // array paths touched by the current document
    std::vector<FieldNode *> m_objectNodes; // object paths touched by the current document
    std::vector<FieldNode *> m_bigNodes;    // paths with a big scalar in the current document
    DocumentShape m_shape;
    std::shared_ptr<const MeasurePlan> m_plan;
    std::vector<FieldNode *> m_summaryNodes; // the plan's array paths, in its order
    std::unique_ptr<VersionWatch> m_versions;
    VersionTally m_mergedVersions; // what builders merged into this one counted
    bool m_shapeCounted = false;   // countShape(): the profile holds every field's shape
    bool m_examplesInAnyOrder = false;
};

} // namespace oe
