#include "DocumentPace.h"

#include <QThread>

namespace oe {

DocumentPace::DocumentPace(double maxDocsPerSecond) : m_maxPerSecond(maxDocsPerSecond)
{
    m_clock.start();
}

void DocumentPace::after(std::uint64_t documentsSoFar) const
{
    if (m_maxPerSecond <= 0)
        return;
    const double due = double(documentsSoFar) / m_maxPerSecond;
    const double now = double(m_clock.nsecsElapsed()) / 1e9;
    if (due > now)
        QThread::msleep(static_cast<unsigned long>((due - now) * 1000.0));
}

} // namespace oe
