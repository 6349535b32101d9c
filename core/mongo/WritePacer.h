#pragma once

#include <cstddef>

namespace oe {

// How many documents one bulk-write command may write, adapted to how long the server takes.
// At most kMax (FerretDB 1.24 deadlocks near 100 matched update statements in one command);
// starts at kInitial, so that a slow server is learnt from a small first command.
// A server that rewrites a document with a scan of its whole table (FerretDB's SQLite backend)
// can take seconds per document once a collection holds a large document: a command that took
// longer than kSlowSeconds makes the next ones smaller, aiming at kTargetSeconds each, so no
// command comes near the socket timeout; a command that took at most half the target lets the
// size double (so the next, if it takes twice as long, still meets the target).
class WritePacer
{
public:
    static constexpr std::size_t kMax = 50;
    static constexpr std::size_t kInitial = 10;
    static constexpr double kSlowSeconds = 40.0;   // a third of the default socket timeout
    static constexpr double kTargetSeconds = 20.0; // a sixth of it

    std::size_t perCommand() const { return m_perCommand; }
    // A command that wrote at most `documents` documents took `seconds`.
    void record(std::size_t documents, double seconds);

private:
    std::size_t m_perCommand = kInitial;
};

} // namespace oe
