#pragma once

#include "bson/SizeAnatomy.h"
#include "explore/AnalysisResult.h"
#include "report/OutlierDocument.h"
#include "source/SourceError.h"

#include <QIODevice>

#include <atomic>
#include <vector>

namespace oe {

// Why the largest outlier documents are big (issue 37's size anatomy, for the CLI and the
// reports; the window's Shape tab takes one document apart at a time): the `count` largest
// outlier documents of an analysis fetched in one pass (a dump read once up to the last of
// them; a collection by one find on their _ids, which moves those documents) and each taken
// apart by SizeAnatomy. anatomy.csv has one row per document.
class AnatomyReport
{
public:
    struct Entry
    {
        OutlierDocument document;
        SizeAnatomy anatomy;
        QString error; // the document could not be read (deleted since the analysis, say)
    };

    // Largest first; empty with `error` set when the source fails.
    static std::vector<Entry> read(const AnalysisResult &result, std::size_t count,
                                   SourceError *error, const std::atomic<bool> *cancel = nullptr);
    // _id,doc_index,bson_size,heaviest_path,heaviest_type,heaviest_bytes,heaviest_share,
    // top_fields ("diagnostics:409605|daily:1054|…", the ten heaviest), error.
    static bool csv(const std::vector<Entry> &entries, QIODevice *out);
    static constexpr std::size_t kTopFields = 10;
};

} // namespace oe
