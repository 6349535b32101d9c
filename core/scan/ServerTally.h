#pragma once

#include "analysis/Analyzer.h"
#include "analysis/CollectionProfile.h"
#include "analysis/ProfileBuilder.h"
#include "measure/ShapePlan.h"
#include "mongo/ConnectionSettings.h"
#include "mongo/LiveQuery.h"

#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace oe {

// A server-side measurement counted in the cluster: the server groups the documents by their
// measurement (TallyPipelines), so what crosses the network is one row per distinct
// measurement, the few documents each tail may keep, and the documents read whole (those the
// plan does not explain, and those with a top-level field the discovery did not see). The
// profile equals the one a scan of every measurement gives (ProfileBuilder::addMeasured), figure
// for figure and document for document: each document's position is its place in natural order
// (the order a find returns), counted by the server ($setWindowFields over record ids).
//
// Five passes at most: the tallies, the documents to read whole (the schema's rejects; those
// whose measurement the plan does not explain), the tails' candidates ($facet), their positions
// ($setWindowFields), and a find of the documents read whole by _id. The collection may change
// between them, as it may during a find. The two passes over every document (the schema's
// rejects, the tallies) are cut into `_id` ranges counted at once, each on a connection of its
// own to the same member, their rows merged as one $group gives them (TallyRunRanges.cpp).
class ServerTally
{
public:
    struct Request
    {
        ConnectionSettings settings;
        LiveQuery query; // database, collection, filter, maxTimeMs; a full scan or a limit
        std::shared_ptr<const MeasurePlan> plan;
        ProfileBuilder::Limits limits;
        std::vector<std::string> knownNames; // the top-level names the discovery saw
        // The shape the tallies count too (ShapePlanner); null: sizes and arrays only (a
        // partial analysis). With one, the documents that are not regular are read whole and
        // the profile is the one a walk of every document gives.
        std::shared_ptr<const ShapePlan> shape;
        // The `_id` ranges the unseen pass and the tallies are cut into, each an aggregation
        // at once on a connection of its own (--parallel); 0: kDefaultRanges.
        int ranges = 0;
    };
    // Two: a server's second core counts the other half (a server with fewer has them take
    // turns, at the cost of an _id sample and a second connection).
    static constexpr int kDefaultRanges = 2;
    // Past these, a scan of every measurement is cheaper and the tallies decline.
    static constexpr std::size_t kMaxReadWhole = 100000;
    static constexpr std::size_t kMaxKept = 100000;
    // Up to this many documents the schema rejects are left out of the tallies by _id.
    static constexpr std::size_t kMaxExcluded = 20000;

    // Nullopt when the collection cannot be counted this way (a record id that is no integer: a
    // clustered collection; an _id that is an object; too many documents to read whole or kept
    // above a threshold; a server that refuses an operator): `declined` says why in a line, and
    // the caller reads the measurements instead. A failed read gives a failed profile.
    static std::optional<CollectionProfile> run(const Request &request,
                                                const std::atomic<bool> *cancel,
                                                const Analyzer::ProgressCallback &progress,
                                                QString *declined);
};

} // namespace oe
