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

// Decides where an analysis measures. Auto and client read every document here, since a
// server-side measurement counts sizes and arrays only (a partial analysis, until the shape is
// counted there too): across a network with wire compression, on this machine without where
// the server answers within kNearbyRoundTripMs. Server (the user's choice) learns what the
// server summarises from a discovery read (200 documents, $sample where it exists, every array
// cut to its first 4 elements), which also proves the operators (one round trip instead of
// three; the server is probed only where it refuses), and refuses in one line where it cannot.
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
    static std::optional<Outcome>
    decide(MeasureMode mode, const SourceRef &source, const QString &filter,
           const std::atomic<bool> *cancel, SourceError *error,
           const std::vector<std::string> &versionFields = VersionTally::knownNames());
    // The line that says how an analysis measures.
    static QString describe(const MeasurePlan *plan);
};

} // namespace oe
