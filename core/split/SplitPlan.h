#pragma once

#include "source/SourceError.h"
#include "stats/Distribution.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>

namespace oe {

// What a split would do to a collection (or did, offline): a value type.
struct SplitPlan
{
    std::uint64_t documents = 0;    // scanned
    std::uint64_t affected = 0;     // would be split
    std::uint64_t alreadySplit = 0; // flag already set: left alone
    QString firstAlreadySplit;      // "document 12 (_id 5)"
    std::uint64_t elementsMoved = 0;
    std::uint64_t bytesMoved = 0;
    std::uint64_t overflowDocuments = 0; // pages to write
    std::uint64_t largestPrimaryAfter = 0;
    std::string largestPrimaryId; // DocumentId encoding
    std::uint64_t largestPageBytes = 0;
    Distribution sizesBefore;           // every scanned document
    Distribution sizesAfter;            // primaries after the split, and the untouched ones
    std::uint64_t withField = 0;        // the field exists, whatever its type
    std::uint64_t skippedDocuments = 0; // the field is not an array there: left as they are
    QStringList skipped;                // the first few, with the document's index and _id
    std::uint64_t invalidDocuments = 0; // cannot be split: no _id; or skipped ones when strict
    QStringList problems;               // the first few, with the document's _id
    SourceError error;                  // reading failed, or a document is corrupt
    bool cancelled = false;
};

// One affected document, for plan.csv.
struct PlanRow
{
    QString id; // relaxed extended JSON
    std::uint64_t sizeBefore = 0;
    std::uint64_t sizeAfter = 0;
    std::uint64_t length = 0;
    std::uint64_t kept = 0;
    std::uint64_t moved = 0;
    std::uint64_t pages = 0;
};

// One document before and after, for the preview pane and `split --dry-run`.
struct DocumentPreview
{
    QString problem; // empty when the document can be previewed
    bool affected = false;
    std::uint64_t sizeBefore = 0;
    QString beforeJson; // the document as it is
    QString primaryJson;
    std::uint64_t primarySize = 0;
    QStringList pageJson;
    QList<std::uint64_t> pageSizes;
};

} // namespace oe
