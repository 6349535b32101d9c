#pragma once

#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"
#include "split/SplitConfig.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <vector>

namespace oe {

// A split document as the application reads it: the primary and its overflow pages stitched
// in page order (DocumentSplitter::reassemble, the one rollback uses), with where each run of
// the array's elements lives. A document that is not split is itself, all in the primary.
struct LogicalDocument
{
    struct Place
    {
        QString where;          // "primary" or "<overflow collection>, page N"
        std::int64_t page = -1; // -1: the primary
        std::uint64_t first = 0;
        std::uint64_t count = 0;
    };

    QByteArray primary;
    QByteArray stitched; // the whole document (empty on error)
    std::vector<Place> places;
    std::uint64_t elements = 0;
    bool split = false; // the flag is set and pages were read
    SourceError error;

    // Reads the document whose _id is `idJson` (relaxed extended JSON of the value) from
    // database.config.collection and its pages from config.overflowCollection. Blocking.
    static LogicalDocument load(const ConnectionSettings &settings, const QString &database,
                                const SplitConfig &config, const QString &idJson);
};

} // namespace oe
