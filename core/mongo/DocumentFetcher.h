#pragma once

#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstdint>

namespace oe {

// Brings back one whole document for the viewer and the split preview: from a dump by its
// position, or from a live collection by its _id. Blocking: call it off the GUI thread.
class DocumentFetcher
{
public:
    // The document at 0-based position `docIndex` of a .bson or .bson.gz dump.
    static QByteArray fromDump(const QString &path, std::uint64_t docIndex, SourceError *error,
                               const std::atomic<bool> *cancel = nullptr);
    // The document whose _id is `idJson` (relaxed or canonical extended JSON of the value, as
    // the outlier table shows it).
    static QByteArray fromCollection(const ConnectionSettings &settings, const QString &database,
                                     const QString &collection, const QString &idJson,
                                     SourceError *error);
};

} // namespace oe
