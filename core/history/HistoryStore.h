#pragma once

#include "analysis/CollectionProfile.h"
#include "analysis/OutlierReport.h"
#include "analysis/SourceRef.h"
#include "history/HistoryRun.h"
#include "shape/ShapeReport.h"

#include <QString>

#include <vector>

namespace oe {

// The analysis history: an embedded SQLite database (Qt SQL; no server of its own) under the
// XDG data folder, shared by the window and the CLI. Every completed analysis keeps its
// summary, the per-path array figures, its top outliers and its schema outliers of shape,
// keyed by the source (for a connection: its hosts, database and collection, never a user name
// or password). One object per thread: it opens its own connection to the file.
// The file's format is versioned (SQLite's user_version): a file an older version wrote is
// migrated in place when opened, in one transaction; a file a newer version wrote is left
// alone and the history is off, with the reason.
class HistoryStore
{
public:
    static constexpr int kTopOutliers = 20;
    // 1: runs, paths, outliers (no user_version set); 2: runs.shape_flags, shape_flags;
    // 3: version_shares (each schema version's documents).
    static constexpr int kFormat = 3;

    // $OE_HISTORY_DB when set ("off": empty, no history kept), else <XDG data
    // home>/outlier-explorer/history.sqlite.
    static QString defaultPath();
    // "mongodb://hosts/db.collection" (hosts only: no credentials, no options) or "dump:/abs".
    static QString sourceKeyOf(const SourceRef &source);

    explicit HistoryStore(const QString &path = defaultPath());
    ~HistoryStore();
    HistoryStore(const HistoryStore &) = delete;
    HistoryStore &operator=(const HistoryStore &) = delete;

    bool isOpen() const { return m_error.isEmpty(); }
    QString error() const { return m_error; } // one line, naming the file
    QString path() const { return m_path; }

    // Keeps one analysis (a complete one; the caller decides); its id, or 0 with error() set.
    // `shape` may be null (not measured).
    qint64 record(const SourceRef &source, const CollectionProfile &profile,
                  const OutlierReport &outliers, const ShapeReport *shape, const QString &origin,
                  const QDateTime &at = QDateTime::currentDateTimeUtc());
    // Oldest first; every source when `sourceKey` is empty.
    std::vector<HistoryRun> runs(const QString &sourceKey = {}) const;
    std::vector<HistoryPath> paths(qint64 runId) const;
    std::vector<HistoryOutlier> outliers(qint64 runId) const;
    std::vector<HistoryShapeFlag> shapeFlags(qint64 runId) const;
    // Each analysis of the source that counted versions by `field`, oldest first: its time,
    // documents and each version's documents (Share::raw empty: the value's text is kept).
    std::vector<SchemaVersions::Point> versionHistory(const QString &sourceKey,
                                                      const std::string &field) const;
    // The file's format (user_version; 1 for a file without one).
    int format() const;
    QStringList sources() const;

private:
    bool exec(const QString &sql);
    bool migrate();
    bool recordShape(qint64 runId, const ShapeReport &shape);
    bool recordVersions(qint64 runId, const SchemaVersions &versions);

    QString m_path;
    QString m_connection; // the QSqlDatabase connection name, this object's own
    QString m_error;
};

} // namespace oe
