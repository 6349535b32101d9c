#pragma once

#include "mongo/ConnectionSettings.h"
#include "source/SourceError.h"

#include <QString>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace oe {

// The documents that hold a top-level field a discovery sample did not see, found by the
// server's own matcher: {$nor: [{$jsonSchema: {properties: {the known names}, additionalProperties:
// false}}]}, ANDed with the user's filter, one pass that returns their _ids and nothing else. A
// server-side measurement reads them whole (UnexplainedReader), so an array at a path the sample
// missed is counted even where the document's size stays within what the plan expects.
class UnseenFieldFinder
{
public:
    // More than this and the sample described the collection badly (keys used as data at the
    // top level, say): the ids are not kept and the size checks alone decide.
    static constexpr std::size_t kMaxDocuments = 100000;

    struct Result
    {
        // The documents' _ids (DocumentId::raw's form); null when `capped`.
        std::shared_ptr<const std::unordered_set<std::string>> ids;
        std::size_t count = 0; // how many were found (kMaxDocuments + 1 when capped)
        bool capped = false;
    };

    // Nullopt when there is nothing to ask (no known name, or a name the schema cannot hold: a
    // dot, a leading `$`), or when the server refused (`error` then says why).
    static std::optional<Result> find(const ConnectionSettings &settings, const QString &database,
                                      const QString &collection, const QString &filter,
                                      const std::vector<std::string> &knownNames, qint64 maxTimeMs,
                                      SourceError *error);
    // {$jsonSchema: {properties: {the known names}, additionalProperties: false}} as BSON
    // bytes: what a document without an unseen top-level field matches; empty when there is
    // nothing to ask.
    static QByteArray schema(const std::vector<std::string> &knownNames);
    // The filter find() sends (canonical extended JSON), for tests and notes; empty when there
    // is nothing to ask.
    static QByteArray filterJson(const QString &filter, const std::vector<std::string> &knownNames);
};

} // namespace oe
