#pragma once

#include <cstddef>

namespace oe {

// How many documents the next batch of a split takes. A batch is the unit of progress, of the
// journal's "split" marks and of stopping: on a slow server (FerretDB rewriting a document
// takes a table scan) a fixed 200 made one batch of a whole 193-document run, so that Stop
// stopped nothing and the progress bar sat at 0 until the end. Batches start small and double
// while one takes under two seconds, halve when one takes over four, and never exceed `most`
// (the CLI's --batch). Two seconds, not one: on a distant server a round's fixed round trips
// alone take a second (a rollback at 150 ms a request stayed at 8 documents a batch, 35 s for
// 227 documents, with a one-second bound), and Stop still ends within a few seconds.
class BatchSizer
{
public:
    explicit BatchSizer(std::size_t most);
    std::size_t size() const { return m_size; }
    void took(double seconds);

    static constexpr std::size_t kFirst = 8;
    static constexpr double kGrowBelow = 2.0;   // seconds
    static constexpr double kShrinkAbove = 4.0; // seconds

private:
    std::size_t m_most;
    std::size_t m_size;
};

} // namespace oe
