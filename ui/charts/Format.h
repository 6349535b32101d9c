#pragma once

#include "explore/AnalysisResult.h"

#include <QString>
#include <QtGlobal>

#include <cstdint>

namespace oe {

// Numbers as the user reads them, in the user's locale.
class Format
{
public:
    static QString count(std::uint64_t n);
    static QString bytes(std::uint64_t n);                  // "1.5 MiB"
    static QString percent(double share, int decimals = 1); // 0.123 -> "12.3 %"
    static QString duration(double seconds);                // "2 min 5 s"
    // A value shown in a table or a report (an _id can be megabytes of text, which would take
    // minutes to lay out): at most `limit` characters, then "… (N characters)".
    static QString shortened(const QString &text, qsizetype limit = 200);
    // A name from a server or a file as part of a file name: no path separators, no leading
    // dot, no control or reserved characters (each becomes '_'), at most 80 characters.
    static QString fileNamePart(const QString &name);
    // Share of MongoDB's 16 MiB document limit.
    static double ofLimit(std::uint64_t bytes) { return double(bytes) / double(16u << 20); }
    // A server time limit bounds each operation (the query, each getMore), not the scan: for
    // a scan longer than the limit, a sentence saying so (" The 1 s server time limit …");
    // empty otherwise.
    static QString timeLimitNote(qint64 maxTimeMs, double seconds);
    // The status line after an analysis: how many documents, how long, or why it stopped.
    static QString analysisStatus(const AnalysisResult &result);
};

} // namespace oe
