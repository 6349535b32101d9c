#pragma once

#include "scan/IdRangePlan.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace oe {

// Where a range scan stands, saved every few seconds so an interrupted scan (Ctrl-C, a crash,
// a lost network) continues with --resume instead of starting again: the plan, and for each
// range the last `_id` read, the documents read and their profile so far. One file per scan
// identity (cluster, namespace, filter, ranges, scan limits), under the user's data folder
// ($XDG_DATA_HOME/outlier-explorer/scans); written atomically.
struct ScanCheckpoint
{
    struct Range
    {
        bool done = false;
        QByteArray lastId;           // raw BSON value of the last _id read (typed ranges)
        std::uint64_t documents = 0; // read so far (typed ranges: their positions)
        std::uint64_t below = 0;     // leftover only: _ids whose type sorts before the cut type
        std::uint64_t above = 0;     // ... and after it
        QByteArray profile;          // ProfileCodec bytes of what was read
    };

    QString identity; // what the key hashes, for a readable error
    IdRangePlan plan;
    std::vector<Range> ranges; // the typed ranges, then the leftover (if the plan has one)
    double seconds = 0.0;      // scanning time before this run
    // The server-side measurement the scan began with (MeasurePlan::encode), so a resumed scan
    // measures as it began; empty: documents measured here (and every version-2 state).
    QByteArray measurePlan;

    // The file for a scan identity.
    static QString pathFor(const QString &identity);
    // nullopt with an empty `error` when there is no file; with `error` when it is unreadable,
    // damaged (a SHA-256 over the whole file is checked) or another version's.
    static std::optional<ScanCheckpoint> load(const QString &identity, QString *error);
    bool save(QString *error) const;
    static void remove(const QString &identity);
};

} // namespace oe
