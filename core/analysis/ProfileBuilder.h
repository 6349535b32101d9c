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
    // The document size a measurement carries (0 when it has none), for progress.
    static std::uint32_t measuredSize(const std::uint8_t *data, std::uint32_t length);
    void merge(ProfileBuilder &&other);

    std::uint64_t documents() const { return m_documents; }
    CollectionProfile takeProfile();

private:
    struct Walk; // one document's walk, defined next to libbson in the .cpp
    void finishDocument(int idType, const std::uint8_t *idValue, std::size_t idLength,
                        std::uint32_t length, std::uint64_t docIndex, const Walk *walk);
    void countKeys(FieldNode *node, std::uint64_t keys);
    void countBigValue(FieldNode *node, std::uint64_t bytes);
    void resetShape();
    void countArray(FieldNode *node, std::uint64_t length);
    void addRecord(const MeasureReply::Record &record, const MeasurePlan::Summary &summary,
                   FieldNode *node);
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
};

} // namespace oe
