#pragma once

#include "AnalysisOptions.h"

#include <QString>

namespace oe {

// What to read from a live collection.
struct LiveQuery
{
    QString database;
    QString collection;
    QString filter; // extended JSON (canonical or relaxed); empty = every document
    AnalysisOptions::Mode mode = AnalysisOptions::Mode::Full;
    std::uint64_t count = 0; // for Sample and Limit
    std::uint64_t seed = 42; // for the client-side reservoir
    qint64 maxTimeMs = 0;    // server-side time limit per operation; 0 = none
    int batchSize = 0;       // cursor batch size; 0 = the driver's

    QString ns() const { return database + QLatin1Char('.') + collection; }
    // Empty when `filter` is a valid extended JSON document, else the problem in one line.
    static QString validateFilter(const QString &filter);
};

} // namespace oe
