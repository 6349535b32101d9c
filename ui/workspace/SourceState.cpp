#include "workspace/SourceState.h"

#include "explore/AnalysisSession.h"
#include "jobs/LatestJob.h"
#include "split/SplitPlanner.h"

#include <QTimer>

namespace oe {

namespace {
constexpr int kRedetectDelayMs = 120; // a dragged line settles before the tables refill
constexpr int kPlanDelayMs = 400;     // the plan re-reads the source
} // namespace

SourceState::SourceState(QObject *parent)
    : QObject(parent), m_redetectTimer(new QTimer(this)), m_planTimer(new QTimer(this)),
      m_planJob(new LatestJob(this))
{
    m_redetectTimer->setSingleShot(true);
    m_redetectTimer->setInterval(kRedetectDelayMs);
    connect(m_redetectTimer, &QTimer::timeout, this, &SourceState::redetect);
    m_planTimer->setSingleShot(true);
    m_planTimer->setInterval(kPlanDelayMs);
    connect(m_planTimer, &QTimer::timeout, this, &SourceState::runPlan);
}

SourceState::~SourceState() = default;

void SourceState::setResult(const AnalysisResult &result)
{
    m_analysis = result;
    m_result = result;
    m_hasResult = true;
    ++m_generation;
    m_path = QString::fromStdString(result.preferredSplitPath());
    m_keep = result.suggestedKeep(result.preferredSplitPath());
    m_sizeThreshold = result.outliers.size.value;
    m_sizeChosen = m_keepChosen = false;
    m_redetectTimer->stop();
    m_hasPlan = false;
    emit resultChanged();
    schedulePlan();
}

void SourceState::clear()
{
    m_analysis = AnalysisResult();
    m_result = AnalysisResult();
    m_hasResult = false;
    ++m_generation;
    m_path.clear();
    m_keep = 0;
    m_sizeThreshold = 0;
    m_sizeChosen = m_keepChosen = false;
    m_redetectTimer->stop();
    m_planTimer->stop();
    m_planJob->cancel();
    m_hasPlan = false;
    emit resultChanged();
}

void SourceState::choosePath(const QString &path)
{
    if (path == m_path)
        return;
    m_path = path;
    const std::uint64_t keep = m_analysis.suggestedKeep(path.toStdString());
    const bool keepMoved = keep != m_keep;
    m_keep = keep;
    emit pathChanged(path);
    if (keepMoved)
        emit keepChanged(keep);
    if (m_keepChosen)
        scheduleRedetect();
    schedulePlan();
}

void SourceState::setKeep(std::uint64_t keep)
{
    if (keep == m_keep)
        return;
    m_keep = keep;
    m_keepChosen = true;
    emit keepChanged(keep);
    scheduleRedetect();
    schedulePlan();
}

void SourceState::setPageSize(std::uint64_t pageSize)
{
    if (pageSize == m_pageSize || pageSize == 0)
        return;
    m_pageSize = pageSize;
    emit pageSizeChanged(pageSize);
    schedulePlan();
}

void SourceState::setSizeThreshold(std::uint64_t bytes)
{
    if (bytes == m_sizeThreshold)
        return;
    m_sizeThreshold = bytes;
    m_sizeChosen = true;
    emit sizeThresholdChanged(bytes);
    scheduleRedetect();
}

void SourceState::setPrecisionTarget(double points)
{
    if (points == m_result.request.p99PrecisionPoints)
        return;
    m_analysis.request.p99PrecisionPoints = m_result.request.p99PrecisionPoints = points;
    emit precisionTargetChanged(points);
}

void SourceState::scheduleRedetect()
{
    if (m_hasResult)
        m_redetectTimer->start();
}

void SourceState::redetect()
{
    DetectionOptions detection = m_analysis.request.detection;
    if (m_sizeChosen)
        detection.sizeThreshold = m_sizeThreshold;
    if (m_keepChosen)
        detection.arrayThreshold = m_keep;
    m_result = AnalysisSession::redetect(m_analysis, detection);
    emit outliersChanged();
}

void SourceState::setVersions(ShapeOptions::Versions versions, const std::string &field)
{
    ShapeOptions &shape = m_analysis.request.shape;
    if (!m_hasResult || (shape.versions == versions && shape.versionField == field))
        return;
    shape.versions = versions;
    shape.versionField = versions == ShapeOptions::Versions::Named ? field : std::string();
    m_redetectTimer->stop();
    redetect();
}

SplitConfig SourceState::splitConfig() const
{
    SplitConfig config;
    config.collection = m_analysis.request.source.collectionName();
    config.field = m_path;
    config.keep = std::int64_t(m_keep);
    config.pageSize = std::int64_t(m_pageSize);
    if (m_names.collection == config.collection && m_names.field == config.field) {
        for (auto field :
             {&SplitConfig::overflowCollection, &SplitConfig::linkField, &SplitConfig::pageField,
              &SplitConfig::itemsField, &SplitConfig::flagField, &SplitConfig::countField,
              &SplitConfig::pagesField})
            if (!(m_names.*field).isEmpty())
                config.*field = m_names.*field;
    }
    return config.withDefaults();
}

void SourceState::setLayoutNames(const SplitConfig &names)
{
    m_names = names;
    emit planChanged(); // the preview shows the names
}

bool SourceState::planIsCurrent() const
{
    const SplitConfig now = splitConfig();
    return m_hasPlan && m_planConfig.field == now.field && m_planConfig.keep == now.keep &&
           m_planConfig.pageSize == now.pageSize;
}

bool SourceState::isPlanning() const
{
    return m_planTimer->isActive() || m_planJob->isRunning();
}

void SourceState::schedulePlan()
{
    const SplitRecommendation *rec = m_analysis.recommendationFor(m_path.toStdString());
    if (!m_hasResult || !rec || !rec->splittable) {
        m_planTimer->stop();
        m_planJob->cancel();
        return;
    }
    m_planTimer->start();
    emit planStarted();
}

void SourceState::runPlan()
{
    const SplitConfig config = splitConfig();
    const AnalysisRequest request = m_analysis.request;
    m_planJob->start(
        [request, config](const std::atomic<bool> &cancelled) {
            // The very documents the analysis read (same sample, seed and filter).
            const auto documents = AnalysisSession::openSource(request);
            return SplitPlanner::plan(*documents, config, &cancelled);
        },
        [this, config](const SplitPlan &plan) {
            if (plan.cancelled)
                return;
            m_plan = plan;
            m_planConfig = config;
            m_hasPlan = true;
            emit planChanged();
        });
}

} // namespace oe
