#pragma once

#include <QElapsedTimer>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace oe {

// Holds a scan, a split or a rollback to a number of documents per second (the CLI's
// --max-docs-per-sec; 0 = as fast as the server allows), to spare a production server: after
// each batch, waits until the documents handled so far are due at that rate, counted from the
// run's start. Safe to share between threads (ranges of one scan count their sum).
class DocumentPace
{
public:
    explicit DocumentPace(double maxDocsPerSecond);
    // Waits in short slices, returning early once `cancel` is raised.
    void after(std::uint64_t documentsSoFar, const std::atomic<bool> *cancel = nullptr) const;
    // How many documents one batch may hold so that the pace is kept at least ten times a
    // second (small documents, or a server's measurements, fill a byte-sized batch with more
    // than a second's worth); 0 when there is no pace.
    static std::size_t batchDocuments(double maxDocsPerSecond);

private:
    double m_maxPerSecond;
    QElapsedTimer m_clock;
};

} // namespace oe
