#pragma once

#include "explore/AnalysisResult.h"
#include "split/SplitConfig.h"
#include "split/SplitPlan.h"

#include <QObject>
#include <QString>

#include <cstdint>

class QTimer;

namespace oe {

class LatestJob;

// What the window knows and the user has chosen about one open source (Tiled's Document is
// the model): the latest analysis, the array path and keep N a split would use, the overflow
// page size and the document-size threshold, and what follows from them: the outliers under
// the chosen thresholds and the predicted split. Every page reads these and writes the user's
// choices back here; none keeps its own copy, so no value is mirrored between widgets, and the
// export and the wizard see what the pages show. A setter that does not change the value emits
// nothing, so a widget echoing a value back cannot loop.
class SourceState : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString path READ path WRITE choosePath NOTIFY pathChanged)
    Q_PROPERTY(std::uint64_t keep READ keep WRITE setKeep NOTIFY keepChanged)
    Q_PROPERTY(std::uint64_t pageSize READ pageSize WRITE setPageSize NOTIFY pageSizeChanged)
    Q_PROPERTY(std::uint64_t sizeThreshold READ sizeThreshold WRITE setSizeThreshold NOTIFY
                   sizeThresholdChanged)
public:
    static constexpr std::uint64_t kDefaultPageSize = 1000;

    explicit SourceState(QObject *parent = nullptr);
    ~SourceState() override;

    // The analysis as it ran.
    const AnalysisResult &analysis() const { return m_analysis; }
    // The analysis with its outliers under the thresholds the user chose (the size threshold;
    // the keep, as "an array longer than keep"): what Overview, Outliers and the export show.
    const AnalysisResult &result() const { return m_result; }
    bool hasResult() const { return m_hasResult; }
    // Changes with every setResult()/clear(): a page compares it with the one it shows.
    int generation() const { return m_generation; }
    // A new result resets the choices to its recommendations (path, keep, size threshold) and
    // emits resultChanged() only: the pages read every value when they show the result.
    void setResult(const AnalysisResult &result);
    void clear();

    QString path() const { return m_path; }
    // Another path: keep moves to that path's suggestion; pathChanged() then keepChanged().
    void choosePath(const QString &path);
    std::uint64_t keep() const { return m_keep; }
    void setKeep(std::uint64_t keep); // the user's choice: it also sets the array threshold
    std::uint64_t pageSize() const { return m_pageSize; }
    void setPageSize(std::uint64_t pageSize);
    std::uint64_t sizeThreshold() const { return m_sizeThreshold; }
    void setSizeThreshold(std::uint64_t bytes);
    // The p99 precision (± percentile points) a sample's report suggests a sample size for:
    // result() and the export follow it; no rescan.
    // The schema version field (ShapeOptions::versions): re-detects at once (no rescan), and
    // the source's next analyses look for it (Workspace::analyse).
    void setVersions(ShapeOptions::Versions versions, const std::string &field);
    void setPrecisionTarget(double points);
    // The thresholds the user set, beyond the analysis's own rules.
    bool sizeThresholdChosen() const { return m_sizeChosen; }
    bool keepChosen() const { return m_keepChosen; }

    // The split the choices describe (defaults for the names), and its prediction over the
    // analysed documents (SplitPlanner, off the UI thread, a moment after the last change).
    SplitConfig splitConfig() const;
    // The names a migration used (overflow collection, link, page, flag… fields): the split
    // preview and the next wizard start from them instead of the defaults.
    void setLayoutNames(const SplitConfig &names);
    const SplitPlan &plan() const { return m_plan; }
    bool planIsCurrent() const; // plan() is for splitConfig()
    bool isPlanning() const;

signals:
    void resultChanged();
    void pathChanged(const QString &path);
    void keepChanged(std::uint64_t keep);
    void pageSizeChanged(std::uint64_t pageSize);
    void sizeThresholdChanged(std::uint64_t bytes);
    void precisionTargetChanged(double points);
    void outliersChanged(); // result() has new outliers (a threshold was chosen)
    void planStarted();
    void planChanged();

private:
    void scheduleRedetect();
    void redetect();
    void schedulePlan();
    void runPlan();

    AnalysisResult m_analysis;
    AnalysisResult m_result;
    bool m_hasResult = false;
    int m_generation = 0;
    QString m_path;
    std::uint64_t m_keep = 0;
    std::uint64_t m_pageSize = kDefaultPageSize;
    std::uint64_t m_sizeThreshold = 0;
    bool m_sizeChosen = false;
    bool m_keepChosen = false;
    QTimer *m_redetectTimer;
    QTimer *m_planTimer;
    LatestJob *m_planJob;
    SplitPlan m_plan;
    SplitConfig m_planConfig;
    SplitConfig m_names;
    bool m_hasPlan = false;
};

} // namespace oe
