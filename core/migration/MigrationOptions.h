#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <vector>

namespace oe {

struct MigrationOptions
{
    QString backupCollection;    // optional: original documents are copied here first
    std::size_t batch = 200;     // at most this many documents per round (see BatchSizer)
    double maxDocsPerSecond = 0; // throttle; 0 = as fast as the server goes
    int maxRetries = 20;         // guard failures (concurrent writes) per document before giving up
    // Called with a round's documents (raw _id values: type byte and value bytes) after their
    // pages are written and just before their trims: the window in which an application's
    // write makes a trim's guard fail and the document be redone. Tests write there to prove
    // that deterministically; it must not throw.
    std::function<void(const std::vector<QByteArray> &ids)> beforeTrim;
    // Rolling back: called with a round's documents being written back, after they and their
    // pages were read and just before the write-backs (the window an application's append
    // between its two round trips must not fall through). Tests only; must not throw.
    std::function<void(const std::vector<QByteArray> &ids)> beforeRestore;
};

struct MigrationProgress
{
    std::uint64_t examined = 0; // documents read
    std::uint64_t migrated = 0; // split (or, rolling back, restored)
    std::uint64_t retried = 0;  // redone because the document changed meanwhile
    std::uint64_t skipped = 0;  // left alone (deleted meanwhile, or could not be processed)
    std::uint64_t elementsMoved = 0;
    std::uint64_t pagesWritten = 0;
    double seconds = 0.0;
    QString phase;
    bool stopped = false; // cancelled before the end (not set when the work was all done)
    QStringList notes;    // what the run did beside its documents (a guard lifted), one line each
};

using MigrationProgressCallback = std::function<void(const MigrationProgress &)>;

} // namespace oe
