#pragma once

#include <QDateTime>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace oe {

// One analysis as the history keeps it: when, from where (never a credential), and its
// summary figures.
struct HistoryRun
{
    qint64 id = 0;
    QDateTime at;      // UTC
    QString origin;    // "gui" or "cli"
    QString sourceKey; // "mongodb://host:port/db.collection" (no user, no password) or "dump:/path"
    QString database;
    QString collection; // a dump's file base name
    QString mode;       // "full", "sample 10000", …
    std::uint64_t documents = 0;
    std::uint64_t sizeP50 = 0;
    std::uint64_t sizeP99 = 0;
    std::uint64_t sizeMax = 0;
    double sizeMean = 0.0;
    std::uint64_t outlierDocuments = 0;
    std::uint64_t sizeThreshold = 0; // the outlier rule's, bytes
    QString longestPath;             // the array path with the longest array
    std::uint64_t longestArray = 0;
    // Schema outliers of shape flagged; none when the run did not measure the shape (server-
    // side, or recorded by a version before history format 2).
    std::optional<std::uint64_t> shapeFlags;
};

// One schema outlier of shape flagged in a run (shape_outliers.csv's kind, path, type and
// figures), so a type mix or a key count can be followed across runs.
struct HistoryShapeFlag
{
    qint64 runId = 0;
    QString kind; // rare_field, mixed_types, …
    QString path;
    QString type;
    std::uint64_t count = 0;
    std::uint64_t total = 0;
};

// An array path's figures in one run.
struct HistoryPath
{
    qint64 runId = 0;
    QString path;
    std::uint64_t arrays = 0;
    std::uint64_t lengthP50 = 0;
    std::uint64_t lengthP99 = 0;
    std::uint64_t lengthMax = 0;
    std::uint64_t elements = 0;
};

// One of a run's top outliers: the largest documents ("size") and the longest arrays ("array").
struct HistoryOutlier
{
    qint64 runId = 0;
    QString kind; // "size" or "array"
    int rank = 0; // 1 = the largest
    QString id;   // relaxed extended JSON
    std::uint64_t bytes = 0;
    QString path; // arrays: the field path
    std::uint64_t length = 0;
};

} // namespace oe
