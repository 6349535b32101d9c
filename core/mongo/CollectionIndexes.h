#pragma once

#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace oe {

// A collection's indexes (listIndexes) and the plan the server picks for a read
// (explain with executionStats): what the Indexes tab shows of a collection and its overflow.
class CollectionIndexes
{
public:
    struct Index
    {
        QString name;
        QString keys;        // relaxed extended JSON: {"parent_id": 1, "page": 1}
        QStringList options; // "unique", "sparse", "partial", "TTL"
    };
    struct Plan
    {
        QString filter;     // the read explained, as extended JSON
        QStringList stages; // the winning plan, outermost first: FETCH, IXSCAN link_1_page_1
        QString index;      // the index it reads, if any
        std::int64_t keysExamined = -1;
        std::int64_t documentsExamined = -1;
        std::int64_t returned = -1;
        SourceError error;
        bool usesIndex() const { return !index.isEmpty(); }
        bool scansCollection() const { return stages.contains(QStringLiteral("COLLSCAN")); }
    };

    // Blocking; on failure empty with `error` set.
    static std::vector<Index> list(const ConnectionSettings &settings, const QString &database,
                                   const QString &collection, SourceError *error);
    // The plan of find(filterJson) on database.collection.
    static Plan explain(const ConnectionSettings &settings, const QString &database,
                        const QString &collection, const QString &filterJson);
};

} // namespace oe
