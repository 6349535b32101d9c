#include "Analyzer.h"

#include "SampleSelection.h"

#include <QElapsedTimer>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <condition_variable>
#include <deque>
#include <mutex>

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
    switch (options.mode) {
    case AnalysisOptions::Mode::Full:
        return QStringLiteral("full");
    case AnalysisOptions::Mode::Limit:
        return QStringLiteral("limit %1").arg(options.count);
    case AnalysisOptions::Mode::Sample:
        return population ? QStringLiteral("sample %1 of %2 (seed %3)")
                                .arg(std::min(options.count, *population))
                                .arg(*population)
                                .arg(options.seed)
                          : QStringLiteral("sample %1").arg(options.count);
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
    std::uint64_t selected = 0;
    for (;;) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        auto batch = buffers.fresh();
        SourceError error;
        const auto result = source.read(*batch, options.batchBytes, &error);
        auto &docs = batch->documents;
        if (selection)
            selection->filter(docs);
        auto cut = std::find_if(docs.begin(), docs.end(), [&](const DocumentBatch::Entry &e) {
            return e.index >= stopAtIndex;
        });
        const bool reachedStop = cut != docs.end();
        docs.erase(cut, docs.end());
        bool reachedLimit = false;
        if (options.mode == AnalysisOptions::Mode::Limit &&
            selected + docs.size() >= options.count) {
            docs.resize(std::size_t(options.count - selected));
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
    }
}

} // namespace

CollectionProfile Analyzer::run(DocumentSource &source, const AnalysisOptions &options,
                                const std::atomic<bool> *cancel, const ProgressCallback &progress)
{
    QElapsedTimer clock;
    clock.start();
    CollectionProfile failed;
    failed.source = source.displayName();
    failed.status = CollectionProfile::Status::Failed;

    source.setCancelFlag(cancel);
    SourceError openError;
    if (!source.open(&openError)) {
        failed.error = openError;
        return failed;
    }

    // Sampling a file: count the documents first, then pick a uniform random subset.
    std::optional<SampleSelection> selection;
    std::optional<std::uint64_t> population;
    if (options.mode == AnalysisOptions::Mode::Sample && !source.samplesItself()) {
        BatchQueue scratch(1);
        std::uint64_t total = 0;
        SourceError countError =
            readSelected(source, AnalysisOptions{}, nullptr, cancel, UINT64_MAX, scratch,
                         [&](std::unique_ptr<DocumentBatch> batch) {
                             total += batch->documents.size();
                             scratch.recycle(std::move(batch));
                             return true;
                         });
        if (countError.isError()) {
            failed.error = countError;
            return failed;
        }
        population = total;
        selection.emplace(SampleSelection::choose(total, options.count, options.seed));
        if (!source.rewind(&openError)) {
            failed.error = openError;
            return failed;
        }
    }

    const int workers =
        std::max(1, options.threads > 0 ? options.threads : QThread::idealThreadCount());
    BatchQueue queue(std::size_t(workers) + 1);
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> doneDocs{0};
    std::atomic<std::uint64_t> doneBytes{0};
    FirstFault fault;
    std::vector<ProfileBuilder> builders;
    for (int i = 0; i < workers; ++i)
        builders.emplace_back(options.limits);

    QThreadPool pool;
    pool.setMaxThreadCount(workers);
    std::vector<QFuture<void>> running;
    for (int w = 0; w < workers; ++w) {
        running.push_back(QtConcurrent::run(&pool, [&, w] {
            ProfileBuilder &builder = builders[std::size_t(w)];
            while (auto batch = queue.pop()) {
                if (!stop.load(std::memory_order_relaxed)) {
                    std::uint64_t bytes = 0;
                    for (const auto &doc : batch->documents) {
                        SourceError e;
                        if (!builder.addDocument(batch->data(doc), doc.length, doc.index, &e)) {
                            e.source = source.displayName();
                            e.docIndex = std::int64_t(doc.index);
                            e.byteOffset += std::int64_t(doc.sourceOffset);
                            fault.record(e, doc.index);
                            stop = true;
                            break;
                        }
                        bytes += doc.length;
                    }
                    doneDocs += batch->documents.size();
                    doneBytes += bytes;
                }
                queue.recycle(std::move(batch));
            }
        }));
    }

    LogHistogram sizesSoFar; // touched by this (the reading) thread only
    qint64 lastReport = -1000;
    auto report = [&](bool force) {
        if (!progress)
            return;
        const qint64 now = clock.elapsed();
        if (!force && now - lastReport < 100)
            return;
        lastReport = now;
        Progress p;
        p.documents = doneDocs.load();
        p.bytes = doneBytes.load();
        p.totalBytes = source.totalBytes();
        p.totalDocuments = selection ? std::optional<std::uint64_t>(selection->size())
                           : options.mode == AnalysisOptions::Mode::Limit
                               ? std::optional<std::uint64_t>(options.count)
                               : source.estimatedDocuments();
        p.seconds = double(now) / 1000.0;
        p.sizesSoFar = sizesSoFar;
        progress(p);
    };

    const SourceError framingError =
        readSelected(source, options, selection ? &*selection : nullptr, cancel, UINT64_MAX, queue,
                     [&](std::unique_ptr<DocumentBatch> batch) {
                         if (stop.load())
                             return false;
                         if (progress)
                             for (const auto &doc : batch->documents)
                                 sizesSoFar.add(doc.length);
                         queue.push(std::move(batch));
                         report(false);
                         return true;
                     });
    queue.close();
    for (auto &f : running)
        f.waitForFinished();

    const bool cancelled = cancel && cancel->load();
    if (framingError.isError())
        fault.record(framingError, std::uint64_t(std::max<std::int64_t>(framingError.docIndex, 0)));

    CollectionProfile profile;
    const bool workerFault = fault.docIndex != UINT64_MAX && !framingError.isError();
    if (workerFault && workers > 1) {
        // Other workers may have walked documents after the faulty one: redo the prefix
        // sequentially, so the partial result is exactly "everything before the fault".
        ProfileBuilder prefix(options.limits);
        SourceError rewindError;
        if (source.rewind(&rewindError)) {
            BatchQueue buffers(1);
            readSelected(source, options, selection ? &*selection : nullptr, cancel, fault.docIndex,
                         buffers, [&](std::unique_ptr<DocumentBatch> batch) {
                             for (const auto &doc : batch->documents)
                                 prefix.addDocument(batch->data(doc), doc.length, doc.index,
                                                    nullptr);
                             buffers.recycle(std::move(batch));
                             return true;
                         });
        }
        profile = prefix.takeProfile();
    } else {
        for (std::size_t i = 1; i < builders.size(); ++i)
            builders[0].merge(std::move(builders[i]));
        profile = builders[0].takeProfile();
    }

    profile.source = source.displayName();
    profile.mode = source.modeDescription().isEmpty() ? modeText(options, population)
                                                      : source.modeDescription();
    profile.bytesRead = profile.sizes.sum();
    if (fault.docIndex != UINT64_MAX) {
        profile.status = CollectionProfile::Status::Failed;
        profile.error = fault.error;
    } else if (cancelled) {
        profile.status = CollectionProfile::Status::Cancelled;
    }
    profile.seconds = double(clock.nsecsElapsed()) / 1e9;
    doneDocs = profile.documents;
    doneBytes = profile.bytesRead;
    report(true);
    return profile;
}

} // namespace oe
