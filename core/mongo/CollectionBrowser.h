#pragma once

#include "mongo/ConnectionSettings.h"
#include "mongo/DocumentQuery.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace oe {

// One document of a page of the Documents tab: its bytes, _id, size and longest array.
struct BrowsedDocument
{
    QByteArray bson;
    QString id; // relaxed extended JSON of the _id (empty when the projection left it out)
    std::uint64_t size = 0;
    QString longestArrayPath;
    std::uint64_t longestArrayLength = 0;
    bool flagged = false; // the query's flag field is true: a split document
};

struct BrowsedPage
{
    std::vector<BrowsedDocument> documents;
    std::optional<std::int64_t> matching; // documents the filter matches (when counted in time)
    bool hasMore = false;                 // another page follows
    SourceError error;
};

// Runs a Documents-tab query against a collection: find with the filter, projection, sort,
// skip and limit (one more document is asked for, to know whether a page follows) and how many
// match (the collection's metadata count without a filter, else countDocuments under a time
// limit). Blocking: call it off the GUI thread.
class CollectionBrowser
{
public:
    static BrowsedPage find(const ConnectionSettings &settings, const QString &database,
                            const QString &collection, const DocumentQuery &query,
                            const std::atomic<bool> *cancel = nullptr);
    static constexpr int kCountTimeMs = 3000;
};

} // namespace oe
