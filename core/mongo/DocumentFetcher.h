#pragma once

#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

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

    // Several documents in one pass: a dump read once, up to the last position asked for
    // (each document to `visit` with its position), or one find on a collection by _ids
    // (DocumentId's raw form; each document found to `visit`, position 0). False with `error`
    // set when the source fails; documents not found are simply not visited.
    using Visit = std::function<void(std::uint64_t docIndex, const QByteArray &document)>;
    static bool someFromDump(const QString &path, const std::set<std::uint64_t> &indexes,
                             const Visit &visit, SourceError *error,
                             const std::atomic<bool> *cancel = nullptr);
    static bool someFromCollection(const ConnectionSettings &settings, const QString &database,
                                   const QString &collection,
                                   const std::vector<std::string> &rawIds, const Visit &visit,
                                   SourceError *error);
};

} // namespace oe
