#pragma once

#include "analysis/VersionTally.h"

#include "analysis/SourceRef.h"
#include "measure/MeasureMode.h"
#include "measure/MeasurePlan.h"
#include "measure/ShapePlan.h"
#include "source/DocumentSelection.h"
#include "source/SourceError.h"

#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace oe {

class MongoConnection;

// Decides where an analysis measures. Client reads every document here: across a network with
// wire compression, on this machine without where the server answers within
// kNearbyRoundTripMs. Server and cluster (the user's choice) learn what the server summarises
// from a discovery read (200 documents, $sample where it exists, every array cut to its first 4
// elements), which also proves the operators (one round trip instead of three; the server is
// probed only where it refuses), and refuse in one line where they cannot. Auto counts the
// whole analysis in the cluster where the server is across a network and can count all of it
// (the discovery proves the operators and plans the shape), so only answers cross the link;
// else (on this machine, a server without the operators, a shape the tallies cannot count, a
// selection they do not take) it reads every document here, as client does: never partial.
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
        // Wire compressors the scan asks for (ConnectionSettings::compressors); empty: none.
        QString compressors;
        // With a plan: the top-level names the discovery read saw (UnseenFieldFinder).
        std::vector<std::string> knownNames;
        // With a plan: the shape a scan counted in the cluster counts too (ShapePlanner), or
        // why it cannot.
        std::shared_ptr<const ShapePlan> shape;
        QString shapeDeclined;
        // Auto chose to count the whole analysis in the cluster (with a plan and a shape);
        // where the tallies decline at run time, the analysis reads here instead (clientSide).
        bool countsInCluster = false;
    };
    // What a scan that reads every document across a network asks for.
    static constexpr const char *kCompressors = "zstd,snappy,zlib";
    static constexpr int kDiscoveryDocuments = 200;
    static constexpr int kDiscoveryElements = 4;
    // Where the server refuses to cut arrays short (a key $arrayToObject will not take), this
    // many whole documents instead.
    static constexpr int kDiscoveryWholeDocuments = 20;
    // A server on this machine (a loopback address or a socket file) that answers within this
    // is read without wire compression: documents cross as fast as they are walked here. A
    // proxy on loopback that adds latency is a network.
    static constexpr double kNearbyRoundTripMs = 5.0;
    // Every host of `hosts` ("h:p,h:p") is this machine: localhost, 127.x, ::1, a socket path.
    static bool onThisMachine(const QString &hosts);
    // Not on this machine, or on it but kNearbyRoundTripMs or more away (a round trip).
    static bool acrossNetwork(MongoConnection &connection);

    // nullopt with `error` when the mode cannot be honoured (or the server cannot be reached).
    // `versionFields`: the top-level fields the scan's walk watches for schema versions (the
    // discovery's does too, and the shape the tallies count groups by their values).
    // `tallies`: the scan is one the tallies can count (a full scan, neither paced nor a
    // resumed range scan), so auto may choose the cluster.
    static std::optional<Outcome>
    decide(MeasureMode mode, const SourceRef &source, const QString &filter,
           const std::atomic<bool> *cancel, SourceError *error,
           const std::vector<std::string> &versionFields = VersionTally::knownNames(),
           bool tallies = false);
    // Every document read here (auto's and client's choice): across a network with wire
    // compression. `why`: why auto does not count in the cluster (empty: it was not asked to).
    // `across`: whether the server is across a network, where the caller knows (else it is
    // asked: a round trip, or a selection timeout where the server does not answer).
    static Outcome clientSide(MeasureMode mode, const SourceRef &source,
                              const QString &why = QString(),
                              std::optional<bool> across = std::nullopt);
    // The line that says how an analysis measures.
    static QString describe(const MeasurePlan *plan);
};

} // namespace oe
