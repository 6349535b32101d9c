#include "scan/RangedScan.h"

#include "analysis/ProfileBuilder.h"
#include "bson/IdOrder.h"
#include "measure/MeasureProjection.h"
#include "mongo/CollectionCatalog.h"
#include "mongo/CollectionInfo.h"
#include "mongo/LiveCollectionSource.h"
#include "mongo/MongoConnection.h"
#include "scan/IdRangePlanner.h"
#include "scan/ProfileCodec.h"
#include "scan/ScanCheckpoint.h"
#include "scan/internal/RangeQuery.h"
#include "source/DocumentPace.h"

#include <QElapsedTimer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <mutex>

namespace oe {

namespace {
// Documents are numbered per range while they are read: the range in the high bits, the
// position below; the final numbers (rank in _id order) replace them once all counts are known.
constexpr int kPositionBits = 40;
constexpr qint64 kFlushMs = 2000; // a range folds its builder into its profile

std::uint64_t provisional(std::size_t slot, std::uint64_t position)
{
    return (std::uint64_t(slot) << kPositionBits) | position;
}
} // namespace

class RangedScan::Scan
{
public:
    Scan(const Request &request, const std::atomic<bool> *cancel,
         const Analyzer::ProgressCallback &progress)
        : m_request(request), m_cancel(cancel), m_progress(progress),
          m_pace(request.options.maxDocsPerSecond)
    {
        m_clock.start();
        measureWith(request.options.measurePlan);
    }
    CollectionProfile run();

private:
    bool prepare();
    bool loadOrPlan(MongoConnection &connection);
    bool useSavedMeasurement();
    void measureWith(std::shared_ptr<const MeasurePlan> plan)
    {
        m_plan = plan && !plan->isEmpty() ? std::move(plan) : nullptr;
        m_projection = m_plan ? MeasureProjection::build(*m_plan) : QByteArray();
    }
    ProfileBuilder newBuilder() const
    {
        ProfileBuilder builder(m_request.options.limits);
        builder.measureWith(m_plan);
        return builder;
    }
    void runRange(std::size_t range);
    void flush(std::size_t range, CollectionProfile &profile, ProfileBuilder &builder,
               const ScanCheckpoint::Range &state);
    void fail(const SourceError &error);
    bool stopped() const
    {
        return m_stop.load(std::memory_order_relaxed) ||
               (m_cancel && m_cancel->load(std::memory_order_relaxed));
    }
    // Returns the documents all ranges have read so far.
    std::uint64_t report(const DocumentBatch &batch, bool force);
    void saveCheckpoint(bool force);
    CollectionProfile finish();
    std::size_t typedCount() const { return std::size_t(m_checkpoint.plan.typedRanges()); }
    bool restartable(std::size_t range) const
    {
        return m_checkpoint.plan.isWhole() || range == typedCount();
    }

    const Request &m_request;
    const std::atomic<bool> *m_cancel;
    const Analyzer::ProgressCallback &m_progress;
    QElapsedTimer m_clock;
    const DocumentPace m_pace; // shared by the ranges: their sum keeps the rate
    std::atomic<bool> m_stop{false};
    QString m_hosts;
    QStringList m_notes;
    std::optional<std::uint64_t> m_estimated;
    // The measurement the ranges read with: the request's, or a resumed state's.
    std::shared_ptr<const MeasurePlan> m_plan;
    QByteArray m_projection;

    std::mutex m_mutex; // guards everything below
    ScanCheckpoint m_checkpoint;
    std::vector<ScanCheckpoint::Range> m_positions; // where each range is, saved or not
    std::vector<CollectionProfile> m_profiles;      // per range, when it ends
    SourceError m_error;
    qint64 m_lastSave = 0;
    std::uint64_t m_documents = 0;
    std::uint64_t m_bytes = 0;
    LogHistogram m_sizesSoFar;
    qint64 m_lastReport = -1000;
};

void RangedScan::Scan::fail(const SourceError &error)
{
    std::lock_guard lock(m_mutex);
    if (!m_error.isError())
        m_error = error;
    m_stop = true;
}

// The plan: from the saved state when resuming it, else from the server.
bool RangedScan::Scan::loadOrPlan(MongoConnection &connection)
{
    m_checkpoint.identity = identity(m_request, m_hosts);
    QString problem;
    auto saved = ScanCheckpoint::load(m_checkpoint.identity, &problem);
    if (!problem.isEmpty() && m_request.resume) {
        m_error = SourceError{};
        m_error.kind = SourceError::Kind::Usage;
        m_error.message =
            problem + QStringLiteral("; run again without --resume to start the scan over");
        return false;
    }
    if (!problem.isEmpty()) // not resuming: the scan starts again and its saves replace it
        m_notes << problem + QStringLiteral(": not used; starting again");
    if (saved && m_request.resume) {
        m_checkpoint = std::move(*saved);
        if (!useSavedMeasurement())
            return false;
        for (std::size_t r = 0; r < m_checkpoint.ranges.size(); ++r) {
            ScanCheckpoint::Range &state = m_checkpoint.ranges[r];
            if (!state.done && restartable(r))
                state = {};
            else if (!state.profile.isEmpty() && !ProfileCodec::decode(state.profile)) {
                m_error.kind = SourceError::Kind::Usage;
                m_error.message = QStringLiteral("the scan state %1 is damaged (range %2)")
                                      .arg(ScanCheckpoint::pathFor(m_checkpoint.identity))
                                      .arg(r + 1);
                return false;
            }
        }
        std::uint64_t before = 0;
        for (const auto &state : m_checkpoint.ranges)
            before += state.documents + state.below + state.above;
        m_documents = before;
        m_notes << QStringLiteral("resumed: %1 documents were read before").arg(before);
        return true;
    }
    if (m_request.resume)
        m_notes << QStringLiteral("no interrupted scan to resume; starting from the beginning");
    else if (saved)
        m_notes << QStringLiteral("an interrupted scan of this collection was not resumed "
                                  "(--resume continues one); starting again");
    SourceError error;
    auto plan = IdRangePlanner::plan(connection, m_request.query, m_request.ranges, m_cancel,
                                     &error, &m_request.settings);
    if (!plan) {
        m_error = error;
        return false;
    }
    m_checkpoint.plan = std::move(*plan);
    m_checkpoint.measurePlan = m_plan ? m_plan->encode() : QByteArray();
    m_checkpoint.ranges.assign(typedCount() + (m_checkpoint.plan.isWhole() ? 0 : 1), {});
    return true;
}

// A resumed scan measures as it began: on the server with its saved plan, or here.
bool RangedScan::Scan::useSavedMeasurement()
{
    if (m_checkpoint.measurePlan.isEmpty()) {
        if (m_plan)
            m_notes << QStringLiteral("resumed as it began: documents measured client-side");
        measureWith(nullptr);
        return true;
    }
    if (MeasurePlan::isOlderFormat(m_checkpoint.measurePlan)) {
        m_notes << QStringLiteral("resumed measuring client-side: the scan began measuring on "
                                  "the server the way an older version did");
        measureWith(nullptr);
        return true;
    }
    auto saved = MeasurePlan::decode(m_checkpoint.measurePlan);
    if (!saved) {
        m_error.kind = SourceError::Kind::Usage;
        m_error.message = QStringLiteral("the scan state %1 is damaged (its measurement)")
                              .arg(ScanCheckpoint::pathFor(m_checkpoint.identity));
        return false;
    }
    if (!m_plan)
        m_notes << QStringLiteral("resumed as it began: partial analysis: measured on the server "
                                  "($bsonSize): the other fields and the shape are not measured");
    measureWith(std::make_shared<const MeasurePlan>(std::move(*saved)));
    return true;
}

bool RangedScan::Scan::prepare()
{
    SourceError error;
    auto connection = MongoConnection::open(m_request.settings, &error);
    if (!connection) {
        m_error = error;
        return false;
    }
    m_hosts = connection->hosts();
    if (!loadOrPlan(*connection))
        return false;
    CollectionInfo info;
    info.database = m_request.query.database;
    info.name = m_request.query.collection;
    CollectionCatalog::fillStatistics(*connection, &info);
    if (info.documents && m_request.query.filter.trimmed().isEmpty())
        m_estimated = std::uint64_t(*info.documents);
    m_notes.prepend(QStringLiteral("parallel scan: %1").arg(m_checkpoint.plan.describe()));
    m_profiles.resize(m_checkpoint.ranges.size());
    m_positions = m_checkpoint.ranges;
    return true;
}

std::uint64_t RangedScan::Scan::report(const DocumentBatch &batch, bool force)
{
    std::lock_guard lock(m_mutex);
    for (const auto &doc : batch.documents) {
        const std::uint32_t size =
            m_plan ? ProfileBuilder::measuredSize(batch.data(doc), doc.length) : doc.length;
        m_bytes += size;
        if (m_progress)
            m_sizesSoFar.add(size);
    }
    m_documents += batch.documents.size();
    const qint64 now = m_clock.elapsed();
    if (!m_progress || (!force && now - m_lastReport < 100))
        return m_documents;
    m_lastReport = now;
    Analyzer::Progress p;
    p.documents = m_documents;
    p.bytes = m_bytes;
    p.totalDocuments = m_estimated;
    p.seconds = m_checkpoint.seconds + double(now) / 1000.0;
    p.sizesSoFar = m_sizesSoFar;
    m_progress(p);
    return m_documents;
}

// Call with m_mutex held.
void RangedScan::Scan::saveCheckpoint(bool force)
{
    const qint64 now = m_clock.elapsed();
    if (!force && now - m_lastSave < m_request.checkpointMs)
        return;
    m_lastSave = now;
    ScanCheckpoint copy = m_checkpoint;
    copy.seconds += double(now) / 1000.0;
    QString problem;
    if (!copy.save(&problem)) // the scan goes on; only resuming it is lost
        m_notes << problem;
}

void RangedScan::Scan::flush(std::size_t range, CollectionProfile &profile, ProfileBuilder &builder,
                             const ScanCheckpoint::Range &state)
{
    profile.absorb(builder.takeProfile());
    ScanCheckpoint::Range saved = state;
    if (!restartable(range) || state.done)
        saved.profile = ProfileCodec::encode(profile);
    else
        saved = {}; // mixed-type ranges start again when resumed
    std::lock_guard lock(m_mutex);
    m_positions[range] = state;
    m_checkpoint.ranges[range] = std::move(saved);
    saveCheckpoint(false);
}

void RangedScan::Scan::runRange(std::size_t range)
{
    ScanCheckpoint::Range state;
    {
        std::lock_guard lock(m_mutex);
        state = m_checkpoint.ranges[range];
    }
    CollectionProfile profile;
    if (!state.profile.isEmpty())
        profile = *ProfileCodec::decode(state.profile);
    if (state.done) {
        std::lock_guard lock(m_mutex);
        m_profiles[range] = std::move(profile);
        return;
    }
    const IdRangePlan &plan = m_checkpoint.plan;
    const bool leftover = range == typedCount();
    LiveQuery query = m_request.query;
    query.selection.mode = DocumentSelection::Mode::Full;
    query.sortById = true;
    query.projection = m_projection;
    query.measurePlan = m_plan;
    query.idCondition = leftover ? RangeQuery::leftover(plan)
                                 : RangeQuery::typedRange(plan, int(range), state.lastId);
    LiveCollectionSource source(m_request.settings, query);
    source.setCancelFlag(m_cancel);
    source.setMaxBatchDocuments(DocumentPace::batchDocuments(m_request.options.maxDocsPerSecond /
                                                             double(m_request.ranges)));
    SourceError error;
    if (!source.open(&error))
        return fail(error);

    ProfileBuilder builder = newBuilder();
    DocumentBatch batch;
    qint64 lastFlush = m_clock.elapsed();
    const int cutRank = plan.cutTypeRank();
    while (!stopped()) {
        const auto result = source.read(batch, m_request.options.batchBytes, &error);
        std::size_t walked = 0;
        for (const auto &doc : batch.documents) {
            std::uint64_t index = 0;
            if (!leftover)
                index = provisional(range + 1, state.documents++);
            else if (const QByteArray id = IdOrder::idOf(batch.data(doc), doc.length);
                     !id.isEmpty() && IdOrder::typeRank(std::uint8_t(id[0])) < cutRank)
                index = provisional(0, state.below++);
            else
                index = provisional(typedCount() + 1, state.above++);
            SourceError fault;
            const bool added =
                m_plan ? builder.addMeasured(batch.data(doc), doc.length, index, &fault)
                       : builder.addDocument(batch.data(doc), doc.length, index, &fault);
            if (!added) {
                fault.source = source.displayName();
                fail(fault);
                break;
            }
            ++walked;
        }
        if (!leftover && walked > 0) {
            const auto &last = batch.documents[walked - 1];
            state.lastId = IdOrder::idOf(batch.data(last), last.length);
        }
        const std::uint64_t readSoFar = report(batch, false);
        if (result == DocumentSource::ReadResult::Error) {
            fail(error);
            break;
        }
        if (result == DocumentSource::ReadResult::End) {
            state.done = !stopped();
            break;
        }
        if (m_clock.elapsed() - lastFlush >= std::min(kFlushMs, m_request.checkpointMs)) {
            flush(range, profile, builder, state);
            lastFlush = m_clock.elapsed();
        }
        m_pace.after(readSoFar, m_cancel);
    }
    flush(range, profile, builder, state);
    std::lock_guard lock(m_mutex);
    m_profiles[range] = std::move(profile);
}

// Merges the ranges, numbers documents by their rank in _id order, and keeps or drops the state.
CollectionProfile RangedScan::Scan::finish()
{
    const bool cancelled = m_cancel && m_cancel->load();
    // Slots: the _ids of types before the cut type, the typed ranges, those of types after it.
    std::vector<std::uint64_t> counts(typedCount() + 2, 0);
    for (std::size_t r = 0; r < m_positions.size(); ++r) {
        const auto &state = m_positions[r];
        if (r < typedCount()) {
            counts[r + 1] = state.documents;
        } else {
            counts[0] = state.below;
            counts.back() = state.above;
        }
    }
    std::vector<std::uint64_t> offsets(counts.size(), 0);
    for (std::size_t s = 1; s < counts.size(); ++s)
        offsets[s] = offsets[s - 1] + counts[s - 1];
    CollectionProfile profile;
    for (CollectionProfile &part : m_profiles)
        profile.absorb(std::move(part));
    profile.renumberDocuments([&](std::uint64_t index) {
        return offsets[std::size_t(index >> kPositionBits)] +
               (index & ((std::uint64_t(1) << kPositionBits) - 1));
    });
    // The state is saved either way: a complete one is released by whoever delivers the
    // result (AnalysisSession::release), so nothing read is lost before the reports exist.
    const bool complete = !m_error.isError() && !cancelled;
    {
        std::lock_guard lock(m_mutex);
        saveCheckpoint(true);
    }
    if (!complete)
        m_notes << QStringLiteral("scan state saved in %1: run the same command with --resume to "
                                  "continue")
                       .arg(ScanCheckpoint::pathFor(m_checkpoint.identity));
    profile.status = m_error.isError() ? CollectionProfile::Status::Failed
                     : cancelled       ? CollectionProfile::Status::Cancelled
                                       : CollectionProfile::Status::Complete;
    profile.error = m_error;
    profile.seconds = m_checkpoint.seconds + double(m_clock.nsecsElapsed()) / 1e9;
    profile.keptState = m_checkpoint.identity;
    return profile;
}

CollectionProfile RangedScan::Scan::run()
{
    const QString filter = m_request.query.filter.trimmed();
    auto named = [&](CollectionProfile profile) {
        profile.source = m_hosts.isEmpty()
                             ? m_request.query.ns()
                             : QStringLiteral("%1 on %2").arg(m_request.query.ns(), m_hosts);
        profile.mode = QStringLiteral("full%1").arg(
            filter.isEmpty() ? QString() : QStringLiteral(", filter ") + filter.simplified());
        profile.notes = m_notes;
        profile.measuredOnServer = m_plan != nullptr;
        return profile;
    };
    if (!prepare()) {
        CollectionProfile failed;
        failed.status = CollectionProfile::Status::Failed;
        failed.error = m_error;
        return named(std::move(failed));
    }
    QThreadPool pool;
    pool.setMaxThreadCount(int(m_checkpoint.ranges.size()));
    std::vector<QFuture<void>> running;
    for (std::size_t r = 0; r < m_checkpoint.ranges.size(); ++r)
        running.push_back(QtConcurrent::run(&pool, [this, r] { runRange(r); }));
    for (auto &f : running)
        f.waitForFinished();
    CollectionProfile profile = finish();
    DocumentBatch none;
    report(none, true);
    return named(std::move(profile));
}

QString RangedScan::identity(const Request &request, const QString &hosts)
{
    const ProfileBuilder::Limits &l = request.options.limits;
    return QStringList{hosts,
                       request.query.ns(),
                       request.query.filter.trimmed(),
                       QString::number(request.ranges),
                       QString::number(l.keepDocumentsLargerThan),
                       QString::number(l.keepArraysLongerThan),
                       QString::number(l.largestDocumentsCapacity),
                       QString::number(l.longestArraysCapacity),
                       QString::number(l.perPathCapacity)}
        .join(QLatin1Char('\n'));
}

void RangedScan::release(const CollectionProfile &profile)
{
    if (profile.status == CollectionProfile::Status::Complete && !profile.keptState.isEmpty())
        ScanCheckpoint::remove(profile.keptState);
}

CollectionProfile RangedScan::run(const Request &request, const std::atomic<bool> *cancel,
                                  const Analyzer::ProgressCallback &progress)
{
    Scan scan(request, cancel, progress);
    return scan.run();
}

} // namespace oe
