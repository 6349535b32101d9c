#pragma once

#include <QElapsedTimer>

#include <cstdint>

namespace oe {

// Holds a split or a rollback to MigrationOptions::maxDocsPerSecond (the CLI's
// --max-docs-per-sec; 0 = as fast as the server allows): after each batch, waits until the
// documents handled so far are due at that rate, counted from the run's start.
class DocumentPace
{
public:
    explicit DocumentPace(double maxDocsPerSecond);
    void after(std::uint64_t documentsSoFar) const;

private:
    double m_maxPerSecond;
    QElapsedTimer m_clock;
};

} // namespace oe
