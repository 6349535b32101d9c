#include "analysis/Analyzer.h"

#include "source/DocumentPace.h"
#include "source/SampleSelection.h"

#include <QElapsedTimer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <condition_variable>
#include <deque>
#include <mutex>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace oe {

namespace {

// Batches travel reader -> workers through a small bounded queue; empty batches come back
// through a free list so buffers are reused (steady memory whatever the file size).
class BatchQueue
{
public:
    explicit BatchQueue(std::size_t capacity) : m_capacity(capacity) {}

    void push(std::unique_ptr<DocumentBatch> batch)
    {
        std::unique_lock lock(m_mutex);
        m_notFull.wait(lock, [&] { return m_queue.size() < m_capacity; });
        m_queue.push_back(std::move(batch));
        m_notEmpty.notify_one();
    }
    std::unique_ptr<DocumentBatch> pop()
    {
        std::unique_lock lock(m_mutex);
        m_notEmpty.wait(lock, [&] { return !m_queue.empty() || m_closed; });
        if (m_queue.empty())
            return nullptr;
        auto batch = std::move(m_queue.front());
        m_queue.pop_front();
        m_notFull.notify_one();
        return batch;
    }
    void close()
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_notEmpty.notify_all();
    }
    void recycle(std::unique_ptr<DocumentBatch> batch)
    {
        std::lock_guard lock(m_mutex);
        batch->documents.clear();
        m_free.push_back(std::move(batch));
    }
    std::unique_ptr<DocumentBatch> fresh()
    {
        std::lock_guard lock(m_mutex);
        if (m_free.empty())
            return std::make_unique<DocumentBatch>();
        auto batch = std::move(m_free.back());
        m_free.pop_back();
        return batch;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_notEmpty;
    std::condition_variable m_notFull;
    std::deque<std::unique_ptr<DocumentBatch>> m_queue;
    std::vector<std::unique_ptr<DocumentBatch>> m_free;
    std::size_t m_capacity;
    bool m_closed = false;
};

// A server's cursor prepares its next reply only when the reader asks for it, so a reader that
// waits for CPU holds the server up. Workers that fall behind catch up from the read-ahead
// queue: they run at a lower priority (nice +10) than the reader, and a local server, on the
// same cores. Their own threads (the scan's pool), so nothing else is lowered.
void yieldToTheReader()
{
#ifdef __linux__
    ::setpriority(PRIO_PROCESS, id_t(::gettid()), 10);
#endif
}

struct FirstFault
{
    std::mutex mutex;
    SourceError error;
    std::uint64_t docIndex = UINT64_MAX;
    void record(const SourceError &e, std::uint64_t index)
    {
        std::lock_guard lock(mutex);
        if (index < docIndex) {
            docIndex = index;
            error = e;
        }
    }
};

QString modeText(const AnalysisOptions &options, std::optional<std::uint64_t> population)
{
    switch (options.selection.mode) {
    case AnalysisOptions::Mode::Full:
        return QStringLiteral("full");
    case AnalysisOptions::Mode::Limit:
        return QStringLiteral("limit %1").arg(options.selection.count);
    case AnalysisOptions::Mode::Sample:
        return population ? QStringLiteral("sample %1 of %2 (seed %3)")
                                .arg(std::min(options.selection.count, *population))
                                .arg(*population)
                                .arg(options.selection.seed)
                          : QStringLiteral("sample %1").arg(options.selection.count);
    }
    return {};
}

// Reads every batch from the source and passes the documents the options select to `sink`
// (which returns false to stop). Returns the framing error, if any.
template <typename Sink>
SourceError readSelected(DocumentSource &source, const AnalysisOptions &options,
                         const SampleSelection *selection, const std::atomic<bool> *cancel,
                         std::uint64_t stopAtIndex, BatchQueue &buffers, Sink &&sink)
{
    std::uint64_t selected = 0, read = 0;
    const DocumentPace pace(options.maxDocsPerSecond);
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        auto batch = buffers.fresh();
        SourceError error;
        const auto result = source.read(*batch, options.batchBytes, &error);
        auto &docs = batch->documents;
        read += docs.size();
        if (selection)
            selection->filter(docs);
        auto cut = std::find_if(docs.begin(), docs.end(), [&](const DocumentBatch::Entry &e) {
            return e.index >= stopAtIndex;
        });
        const bool reachedStop = cut != docs.end();
        docs.erase(cut, docs.end());
        bool reachedLimit = false;
        if (options.selection.mode == AnalysisOptions::Mode::Limit &&
            selected + docs.size() >= options.selection.count) {
            docs.resize(std::size_t(options.selection.count - selected));
            reachedLimit = true;
        }
        selected += docs.size();
        const bool more =
            result == DocumentSource::ReadResult::Batch && !reachedStop && !reachedLimit;
        if (!docs.empty()) {
            if (!sink(std::move(batch)))
                return {};
        } else {
            buffers.recycle(std::move(batch));
        }
        if (result == DocumentSource::ReadResult::Error && !reachedStop && !reachedLimit)
            return error;
        if (!more)
            return {};
        pace.after(read, cancel);
    }
}

// One scan: a reader (the calling thread) feeding batches to worker threads, each walking its
// own ProfileBuilder; the builders merge at the end.
class Scan
{
public:
    Scan(DocumentSource &source, const AnalysisOptions &options, const std::atomic<bool> *cancel,
         const Analyzer::ProgressCallback &progress)
        : m_source(source), m_options(options), m_cancel(cancel), m_progress(progress),
          m_workers(
              std::max(1, options.threads > 0 ? options.threads : QThread::idealThreadCount())),
          m_queue(std::max(std::size_t(m_workers) + 1,
                           source.readAheadBytes() / std::max<std::size_t>(options.batchBytes, 1)))
    {
        m_clock.start();
    }

    CollectionProfile run();

private:
    CollectionProfile failed(const SourceError &error) const
    {
        CollectionProfile profile;
        profile.source = m_source.displayName();
        profile.status = CollectionProfile::Status::Failed;
        profile.error = error;
        return profile;
    }
    bool chooseSample(SourceError *error);
    void startWorkers();
    SourceError readAll();
    CollectionProfile collect(const SourceError &framingError);
    bool sampleCoversPopulation(std::uint64_t documents, bool cancelled) const;
    CollectionProfile prefixBefore(std::uint64_t docIndex);
    void report(bool force);
    ProfileBuilder newBuilder() const
    {
        ProfileBuilder builder(m_options.limits);
        builder.measureWith(m_options.measurePlan);
        return builder;
    }
    bool add(ProfileBuilder &builder, const DocumentBatch &batch, const DocumentBatch::Entry &doc,
             SourceError *fault) const
    {
        return m_options.measurePlan
                   ? builder.addMeasured(batch.data(doc), doc.length, doc.index, fault)
                   : builder.addDocument(batch.data(doc), doc.length, doc.index, fault);
    }
    std::uint32_t sizeOf(const DocumentBatch &batch, const DocumentBatch::Entry &doc) const
    {
        return m_options.measurePlan ? ProfileBuilder::measuredSize(batch.data(doc), doc.length)
                                     : doc.length;
    }
    const SampleSelection *selection() const { return m_selection ? &*m_selection : nullptr; }

    DocumentSource &m_source;
    const AnalysisOptions &m_options;
    const std::atomic<bool> *m_cancel;
    const Analyzer::ProgressCallback &m_progress;
    const int m_workers;
    BatchQueue m_queue;
    QElapsedTimer m_clock;
    std::optional<SampleSelection> m_selection;
    std::optional<std::uint64_t> m_population;
    std::atomic<bool> m_stop{false};
    std::uint64_t m_doneDocs = 0; // read and queued (the reading thread only)
    std::uint64_t m_doneBytes = 0;
    FirstFault m_fault;
    std::vector<ProfileBuilder> m_builders;
    QThreadPool m_pool;
    std::vector<QFuture<void>> m_running;
    LogHistogram m_sizesSoFar; // touched by the reading thread only
    qint64 m_lastReport = -1000;
};

// Sampling a file: count the documents first, then pick a uniform random subset.
bool Scan::chooseSample(SourceError *error)
{
    if (m_options.selection.mode != AnalysisOptions::Mode::Sample || m_source.samplesItself())
        return true;
    BatchQueue scratch(1);
    std::uint64_t total = 0;
    *error = readSelected(m_source, AnalysisOptions{}, nullptr, m_cancel, UINT64_MAX, scratch,
                          [&](std::unique_ptr<DocumentBatch> batch) {
                              total += batch->documents.size();
                              scratch.recycle(std::move(batch));
                              return true;
                          });
    if (error->isError())
        return false;
    m_population = total;
    m_selection.emplace(
        SampleSelection::choose(total, m_options.selection.count, m_options.selection.seed));
    return m_source.rewind(error);
}

void Scan::startWorkers()
{
    for (int i = 0; i < m_workers; ++i)
        m_builders.push_back(newBuilder());
    m_pool.setMaxThreadCount(m_workers);
    for (int w = 0; w < m_workers; ++w) {
        m_running.push_back(QtConcurrent::run(&m_pool, [this, w] {
            if (m_source.readAheadBytes() > 0)
                yieldToTheReader();
            ProfileBuilder &builder = m_builders[std::size_t(w)];
            while (auto batch = m_queue.pop()) {
                if (!m_stop.load(std::memory_order_relaxed)) {
                    for (const auto &doc : batch->documents) {
                        SourceError e;
                        if (!add(builder, *batch, doc, &e)) {
                            e.source = m_source.displayName();
                            e.docIndex = std::int64_t(doc.index);
                            e.byteOffset += std::int64_t(doc.sourceOffset);
                            m_fault.record(e, doc.index);
                            m_stop = true;
                            break;
                        }
                    }
                }
                m_queue.recycle(std::move(batch));
            }
        }));
    }
}

void Scan::report(bool force)
{
    if (!m_progress)
        return;
    const qint64 now = m_clock.elapsed();
    if (!force && now - m_lastReport < 100)
        return;
    m_lastReport = now;
    Analyzer::Progress p;
    // Documents handed to the workers: what the chart shows too (workers are a batch behind).
    p.documents = m_doneDocs;
    p.bytes = m_doneBytes;
    // Bytes measure progress only when every document is read; a sample or a limit reads
    // (or keeps) a number of documents.
    const bool whole = m_options.selection.mode == AnalysisOptions::Mode::Full && !m_selection;
    if (whole)
        p.totalBytes = m_source.totalBytes();
    const auto estimated = m_source.estimatedDocuments();
    if (m_selection)
        p.totalDocuments = m_selection->size();
    else if (whole)
        p.totalDocuments = estimated;
    else
        p.totalDocuments =
            estimated ? std::min(*estimated, m_options.selection.count) : m_options.selection.count;
    p.seconds = double(now) / 1000.0;
    p.sizesSoFar = m_sizesSoFar;
    m_progress(p);
}

// Reads every selected document into the queue, then waits for the workers.
SourceError Scan::readAll()
{
    const SourceError framingError =
        readSelected(m_source, m_options, selection(), m_cancel, UINT64_MAX, m_queue,
                     [&](std::unique_ptr<DocumentBatch> batch) {
                         if (m_stop.load())
                             return false;
                         for (const auto &doc : batch->documents) {
                             const std::uint32_t size = sizeOf(*batch, doc);
                             if (m_progress)
                                 m_sizesSoFar.add(size);
                             m_doneBytes += size;
                         }
                         m_doneDocs += batch->documents.size();
                         m_queue.push(std::move(batch));
                         report(false);
                         return true;
                     });
    m_queue.close();
    for (auto &f : m_running)
        f.waitForFinished();
    return framingError;
}

// Other workers may have walked documents after a faulty one: the prefix is redone
// sequentially, so the partial result is exactly "everything before the fault".
CollectionProfile Scan::prefixBefore(std::uint64_t docIndex)
{
    ProfileBuilder prefix = newBuilder();
    SourceError rewindError;
    if (m_source.rewind(&rewindError)) {
        BatchQueue buffers(1);
        readSelected(m_source, m_options, selection(), m_cancel, docIndex, buffers,
                     [&](std::unique_ptr<DocumentBatch> batch) {
                         for (const auto &doc : batch->documents)
                             add(prefix, *batch, doc, nullptr);
                         buffers.recycle(std::move(batch));
                         return true;
                     });
    }
    return prefix.takeProfile();
}

// A sample is exact when it holds every document it was drawn from: the population is known
// and all of it was read, or a complete read returned fewer documents than asked for (the
// server's $sample and the client's reservoir then return the whole, filtered, collection).
bool Scan::sampleCoversPopulation(std::uint64_t documents, bool cancelled) const
{
    if (m_population)
        return documents >= *m_population;
    const bool complete = m_fault.docIndex == UINT64_MAX && !cancelled;
    return complete && documents < m_options.selection.count;
}

CollectionProfile Scan::collect(const SourceError &framingError)
{
    const bool cancelled = m_cancel && m_cancel->load();
    if (framingError.isError())
        m_fault.record(framingError,
                       std::uint64_t(std::max<std::int64_t>(framingError.docIndex, 0)));
    CollectionProfile profile;
    const bool workerFault = m_fault.docIndex != UINT64_MAX && !framingError.isError();
    if (workerFault && m_workers > 1) {
        profile = prefixBefore(m_fault.docIndex);
    } else {
        for (std::size_t i = 1; i < m_builders.size(); ++i)
            m_builders[0].merge(std::move(m_builders[i]));
        profile = m_builders[0].takeProfile();
    }
    profile.source = m_source.displayName();
    profile.mode = m_source.modeDescription().isEmpty() ? modeText(m_options, m_population)
                                                        : m_source.modeDescription();
    profile.bytesRead = profile.sizes.sum();
    profile.population = m_population;
    profile.randomSample = m_options.selection.mode == AnalysisOptions::Mode::Sample &&
                           !sampleCoversPopulation(profile.documents, cancelled);
    if (!profile.randomSample && !profile.population &&
        m_options.selection.mode == AnalysisOptions::Mode::Sample)
        profile.population = profile.documents; // every document of it was read
    if (m_fault.docIndex != UINT64_MAX) {
        profile.status = CollectionProfile::Status::Failed;
        profile.error = m_fault.error;
    } else if (cancelled) {
        profile.status = CollectionProfile::Status::Cancelled;
    }
    profile.seconds = double(m_clock.nsecsElapsed()) / 1e9;
    profile.measuredOnServer = m_options.measurePlan != nullptr;
    return profile;
}

CollectionProfile Scan::run()
{
    m_source.setCancelFlag(m_cancel);
    m_source.setMaxBatchDocuments(DocumentPace::batchDocuments(m_options.maxDocsPerSecond));
    SourceError error;
    if (!m_source.open(&error) || !chooseSample(&error))
        return failed(error);
    startWorkers();
    CollectionProfile profile = collect(readAll());
    m_doneDocs = profile.documents;
    m_doneBytes = profile.bytesRead;
    report(true);
    return profile;
}

} // namespace

CollectionProfile Analyzer::run(DocumentSource &source, const AnalysisOptions &options,
                                const std::atomic<bool> *cancel, const ProgressCallback &progress)
{
    Scan scan(source, options, cancel, progress);
    return scan.run();
}

} // namespace oe
