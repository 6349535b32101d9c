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

} // namespace oe
