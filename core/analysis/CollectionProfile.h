#pragma once

#include "analysis/DocumentShape.h"
#include "analysis/FieldProfile.h"
#include "analysis/VersionTally.h"
#include "source/SourceError.h"
#include "stats/CandidateTail.h"
#include "stats/Distribution.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace oe {

// The result of scanning one collection or dump: a value type, safe to hand across threads.
struct CollectionProfile
{
    enum class Status
    {
        Complete,
        Cancelled,
        Failed
    };

    QString source; // file name or redacted URI + namespace
    QString mode;   // "full", "sample N", "limit N"
    Status status = Status::Complete;
    SourceError error;           // set when Failed
    std::uint64_t documents = 0; // documents analysed
    // A uniform random sample of fewer documents than the collection holds: its quantiles
    // are estimates, with the confidence intervals QuantileInterval gives.
    bool randomSample = false;
    std::optional<std::uint64_t> population; // documents sampled from, when known
    std::uint64_t bytesRead = 0;             // bytes consumed from the source
    double seconds = 0.0;
    Distribution sizes;               // BSON document sizes
    std::vector<FieldProfile> fields; // sorted by path
    CandidateTail largestDocuments;   // by BSON size
    CandidateTail longestArrays;      // by each document's longest array (path in candidate)
    DocumentShape shape;              // fields and depth per document
    VersionTally versions;            // the shape per schema version (a walk's)
    // What the scan tells the user about how it read (a parallel plan, a resumed state): shown
    // by the CLI and the window, never written into the reports.
    QStringList notes;
    // The sizes and arrays were measured on the server (MeasureProjection), not here.
    bool measuredOnServer = false;
    // Counted in the cluster (ServerTally): the server grouped the documents, only the answer
    // crossed. With measuredOnServer false, the shape too: the whole analysis.
    bool countedInCluster = false;
    // A range scan's saved state (its identity), kept after the scan completes until the result
    // is delivered (AnalysisSession::release): a crash while the reports are written leaves a
    // state that --resume turns into the reports without reading again. Empty for other scans.
    QString keptState;

    bool isPartial() const { return status != Status::Complete; }
    // Adds what `other` counted over other documents (a range of a parallel scan, or what a
    // resumed scan read before): counts add, distributions and tails merge, fields by path.
    void absorb(CollectionProfile &&other);
    // Gives every remembered document a new index, in the same order (see CandidateTail).
    template <typename Renumber> void renumberDocuments(Renumber &&renumber)
    {
        largestDocuments.renumber(renumber);
        longestArrays.renumber(renumber);
        shape.mostFields.renumber(renumber);
        shape.deepest.renumber(renumber);
        for (FieldProfile &f : fields) {
            f.longestPerDocument.renumber(renumber);
            f.shape.mostKeys.renumber(renumber);
            f.shape.biggestValues.renumber(renumber);
            for (ShapeExample &e : f.shape.examples)
                e.docIndex = renumber(e.docIndex);
        }
        versions.renumberDocuments(renumber);
    }
    const FieldProfile *field(const std::string &path) const;
    // Adds what `from` counted at the same path (in other documents) to `into`.
    static void absorbField(FieldProfile &into, FieldProfile &&from);
};

} // namespace oe
