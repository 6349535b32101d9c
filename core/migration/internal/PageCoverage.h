#pragma once

// Internal to core: whether a document that is not flagged (any more) still holds every element
// of its overflow pages, so that deleting the pages provably loses nothing.

#include "migration/JournalEntry.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace oe {

class PageCoverage
{
public:
    enum class Verdict
    {
        NoPages,     // nothing to delete, nothing to lose
        Covered,     // the document holds the journaled original and every page item after it
        TailMissing, // the original is back, but not yet the items appended to the pages later
        Deleted,     // the document is gone: its pages are all that is left of its elements
        Uncovered    // the document does not hold what its pages hold (e.g. the flag cleared)
    };
    struct Result
    {
        Verdict verdict = Verdict::Uncovered;
        std::vector<QByteArray> missing; // TailMissing: the page items to append, in order
        std::uint64_t pageItems = 0;     // items the pages hold
        QString why;                     // Uncovered: in words
    };

    // `document` is the current document (empty if deleted), `pagesInOrder` its pages sorted by
    // page number. Covered needs the document's array to start with the journaled original
    // (its length and digest) and to hold the pages' items, in order, from position keep on:
    // the split kept elements [0, keep) and moved the rest, then the pages may have grown.
    static Result assess(const QByteArray &document, const std::vector<QByteArray> &pagesInOrder,
                         const JournalEntry &entry, const SplitConfig &config);
};

} // namespace oe
