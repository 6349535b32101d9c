#pragma once

#include "analysis/SourceRef.h"
#include "measure/MeasureMode.h"
#include "measure/MeasurePlan.h"
#include "source/DocumentSelection.h"
#include "source/SourceError.h"

#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>

namespace oe {

// Decides where an analysis measures, and learns what the server summarises: for a live
// collection whose server has $bsonSize (asked, not assumed from a version) and is not so near
// that documents cross the link as fast as they are walked, a discovery read
// (200 documents, $sample where it exists, every array cut to its first 4 elements) gives the
// plan. Across a network that read also proves the operators (one round trip instead of three);
// the server is probed only where it refuses. Falls back to client-side measurement, with one line
// saying why, where the mode is auto; refuses in one line where the user asked for the server.
class MeasureSetup
{
public:
    struct Outcome
    {
        std::shared_ptr<const MeasurePlan> plan; // null: measure client-side
        QStringList notes;                       // one line each, for the user
        // What the discovery read learnt of the collection, so the scan need not ask again:
        // its document count (collStats), and that it exists (the read returned documents).
        std::optional<std::uint64_t> collectionDocuments;
        bool collectionSeen = false;
    };
    static constexpr int kDiscoveryDocuments = 200;
    static constexpr int kDiscoveryElements = 4;
    // Where the server refuses to cut arrays short (a key $arrayToObject will not take), this
    // many whole documents instead.
    static constexpr int kDiscoveryWholeDocuments = 20;
    // auto measures client-side on a server on this machine (a loopback address or a socket
    // file) that answers within this: documents then cross as fast as they are walked here, and
    // the server's CPU is spared. A proxy on loopback that adds latency is a network.
    static constexpr double kNearbyRoundTripMs = 5.0;
    // Every host of `hosts` ("h:p,h:p") is this machine: localhost, 127.x, ::1, a socket path.
    static bool onThisMachine(const QString &hosts);

    // nullopt with `error` when the mode cannot be honoured (or the server cannot be reached).
    static std::optional<Outcome> decide(MeasureMode mode, const SourceRef &source,
                                         const QString &filter, const std::atomic<bool> *cancel,
                                         SourceError *error);
    // The line that says how an analysis measures.
    static QString describe(const MeasurePlan *plan);
};

} // namespace oe
