#pragma once

#include "source/DocumentBatch.h"
#include "source/SourceError.h"

#include <QString>

#include <atomic>
#include <optional>

namespace oe {

// Where documents come from: a mongodump file, or (next) a live collection. Sources are read
// from one thread; analysis fans the batches out to workers.
class DocumentSource
{
public:
    enum class ReadResult
    {
        Batch,
        End,
        Error
    };

    virtual ~DocumentSource();

    // Name for messages and reports; never contains credentials.
    virtual QString displayName() const = 0;
    virtual bool open(SourceError *error) = 0;
    // Replaces the batch's contents with the next whole documents (at least one), about
    // `targetBytes` in all. On Error, the batch holds the documents read before the fault.
    virtual ReadResult read(DocumentBatch &batch, std::size_t targetBytes, SourceError *error) = 0;
    // Starts again from the first document (for a second pass); false if not possible.
    virtual bool rewind(SourceError *error) = 0;

    // For progress: what is known up front, if anything.
    virtual std::optional<std::uint64_t> totalBytes() const { return std::nullopt; }
    virtual std::optional<std::uint64_t> estimatedDocuments() const { return std::nullopt; }
    virtual std::uint64_t bytesConsumed() const = 0;

    // A source whose documents cannot share an _id (a collection: the server's unique index).
    virtual bool guaranteesUniqueIds() const { return false; }
    // A source that draws its own sample (server-side $sample, or a reservoir over a scan)
    // says so; the analyzer then reads it whole instead of selecting documents itself.
    virtual bool samplesItself() const { return false; }
    // How many bytes of read documents may wait for the analysis workers. A server sends a
    // cursor's documents in replies of up to 16 MB and prepares the next one only when asked:
    // a queue that holds less than a reply makes the server wait for the workers and the
    // workers for the server, in turn, instead of working at once. 0: a few batches.
    virtual std::size_t readAheadBytes() const { return 0; }
    // How the documents were chosen, when the source decides ("sample 1000 via $sample").
    virtual QString modeDescription() const { return {}; }
    // Long reads inside the source (a reservoir scan) stop early when this flag is set.
    void setCancelFlag(const std::atomic<bool> *cancel) { m_cancel = cancel; }
    // A paced read takes at most this many documents per batch (0: no limit), so the pace is
    // kept between batches (DocumentPace::batchDocuments).
    void setMaxBatchDocuments(std::size_t documents) { m_maxBatchDocuments = documents; }

protected:
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }
    bool batchFull(const DocumentBatch &batch, std::size_t targetBytes) const
    {
        return batch.bytes.size() >= targetBytes ||
               (m_maxBatchDocuments && batch.documents.size() >= m_maxBatchDocuments);
    }

private:
    const std::atomic<bool> *m_cancel = nullptr;
    std::size_t m_maxBatchDocuments = 0;
};

} // namespace oe
