#pragma once

#include "remedy/RewriteConfig.h"
#include "remedy/RewriteState.h"
#include "source/SourceError.h"
#include "stats/Distribution.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace oe {

// One document's value in a rewrite's preview or report.
struct RewriteRow
{
    enum class Kind
    {
        Change,       // the preview: before -> after
        Cannot,       // the preview and apply: left alone, `why`
        ChangedSince, // apply: the application rewrote it meanwhile (its value kept);
                      // verify: it no longer holds the rewritten value; rollback: it was
                      // rewritten after the rewrite, so it is kept as the application left it
        Deleted,      // the document is gone
        Mismatch      // verify: the journal's after is not the rewrite of its before
    };
    Kind kind = Kind::Change;
    QString id; // the _id as relaxed extended JSON
    QString before, after, why;
};

// What a preview found: every document with the field, counted by what the rewrite would do;
// the rows (changes and those it cannot rewrite) in read order, up to kRowLimit; all of them
// go to the preview's CSV.
struct RewritePreview
{
    static constexpr std::size_t kRowLimit = 10000;
    std::uint64_t examined = 0, changes = 0, unchanged = 0, cannot = 0;
    // The changed values' bytes before and after (an extraction: what leaves the documents).
    std::uint64_t bytesBefore = 0, bytesAfter = 0;
    // The sizes of the documents examined (those holding the field) now and as the rewrite
    // would leave them (an extraction: its excerpt and flag counted).
    Distribution sizesBefore, sizesAfter;
    std::vector<RewriteRow> rows;
    bool truncated = false; // more rows than kRowLimit (the counts are whole)
    QStringList notes;
};

struct RewriteOptions
{
    std::size_t batch = 200;
    double maxDocsPerSecond = 0; // throttle (DocumentPace); 0 = as fast as the server goes
    // Tests only: called with a round's _ids (raw values) after their journal entries are
    // written and just before their guarded updates, the window an application's write must
    // not fall through. Must not throw.
    std::function<void(const std::vector<QByteArray> &ids)> beforeWrite;
    // Tests only: rolling back, called with a round's _ids after the documents are read and just
    // before their guarded writes (the same window, coming back). Must not throw.
    std::function<void(const std::vector<QByteArray> &ids)> beforeRestore;
};

struct RewriteProgress
{
    std::uint64_t examined = 0;     // documents read
    std::uint64_t rewritten = 0;    // rewritten (rolling back: restored)
    std::uint64_t unchanged = 0;    // already what the rewrite makes
    std::uint64_t cannot = 0;       // left alone: no faithful rewrite
    std::uint64_t changedSince = 0; // the application's write won (its value kept)
    std::uint64_t deleted = 0;      // gone meanwhile
    std::uint64_t resumed = 0;      // entries an interrupted run left, settled first
    double seconds = 0.0;
    bool stopped = false;
    QStringList notes;
    std::vector<RewriteRow> rows; // the documents left alone, changed since or gone (first 1000)
};

using RewriteProgressCallback = std::function<void(const RewriteProgress &)>;

// verify(): every journaled document checked against the value the rewrite wrote.
// Each entry's after is recomputed from its before (the journal is whole and the rewrite is
// the one recorded), and the document is read: it holds the after, or the application rewrote
// it since, or it is gone. The journal must hold as many entries as the run recorded.
struct RewriteVerify
{
    std::uint64_t entries = 0, recorded = 0; // entries found, and as many as the run wrote
    std::uint64_t matching = 0, changedSince = 0, deleted = 0, mismatched = 0;
    std::vector<RewriteRow> rows; // the first 1000 that do not match
    bool ok() const { return mismatched == 0 && entries == recorded; }
    // The window's sentence: "Verified: 60 entries of 60; 60 hold the rewrite, 0 rewritten by
    // the application since, 0 deleted, 0 mismatched." (the Rewrite dialog's and Migrations').
    QString summary() const;
};

struct RewriteStep
{
    bool ok = false;
    SourceError error;
    RewritePreview preview;
    RewriteProgress progress;
    RewriteVerify verify;
    // A preview's word on the journal: an interrupted run of this kind at this path (applying
    // or rolling back), as it was recorded, which Apply of it resumes and Roll back undoes.
    std::optional<RewriteConfig> interrupted;
    RewriteState interruptedState = RewriteState::Applying;
};

} // namespace oe
