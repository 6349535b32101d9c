#include "source/DocumentPace.h"

#include <QThread>

#include <algorithm>

namespace oe {

DocumentPace::DocumentPace(double maxDocsPerSecond) : m_maxPerSecond(maxDocsPerSecond)
{
    m_clock.start();
}

void DocumentPace::after(std::uint64_t documentsSoFar, const std::atomic<bool> *cancel) const
{
    if (m_maxPerSecond <= 0)
        return;
    const qint64 dueMs = qint64(double(documentsSoFar) * 1000.0 / m_maxPerSecond);
    for (qint64 left = dueMs - m_clock.elapsed(); left > 0; left = dueMs - m_clock.elapsed()) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return;
        QThread::msleep(static_cast<unsigned long>(std::min<qint64>(left, 50)));
    }
}

std::size_t DocumentPace::batchDocuments(double maxDocsPerSecond)
{
    if (!(maxDocsPerSecond > 0))
        return 0;
    return std::size_t(std::max(1.0, std::min(maxDocsPerSecond / 10.0, 1e9)));
}

} // namespace oe
