#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace oe {

// What "Test connection" reports, and what analysis and migration adapt to.
struct ServerInfo
{
    enum class Topology
    {
        Standalone,
        ReplicaSet,
        Sharded
    };

    QString hosts;
    QString version; // MongoDB version the server reports (FerretDB reports a compatible one)
    int maxWireVersion = 0;
    Topology topology = Topology::Standalone;
    QString setName; // replica set name
    bool isFerretDb = false;
    QString ferretDbVersion;
    bool supportsSample = false;       // the $sample aggregation stage
    bool supportsBsonSize = false;     // the $bsonSize operator
    bool supportsUnsetField = false;   // the $unsetField and $setField operators (MongoDB 5.0+)
    bool supportsTransactions = false; // multi-document transactions
    QStringList notes;                 // fallbacks in words, for the user
    // The fastest of a few `ping` round trips, in milliseconds; negative when not measured.
    double roundTripMs = -1;
    // Through mongos: the cluster's shards, "id host" each (listShards); empty elsewhere, or when
    // the user may not list them (a note says so).
    QStringList shards;

    // Whether a single-document update is applied atomically, so a guard in its filter still
    // holds when the document is written: MongoDB and FerretDB 2.x (PostgreSQL with the
    // DocumentDB extension) do; FerretDB 1.x (and 0.x) reads the document and writes it back
    // whole, so a write landing in between is lost (FerretDB issue #3040).
    enum class UpdateAtomicity
    {
        Atomic,
        NotAtomic,
        Unknown // FerretDB whose version cannot be read
    };

    QString topologyName() const;
    QString summary() const; // one line
    // FerretDB's major version from ferretDbVersion ("v1.24.2", "1.24.2", "2.0.0-rc.2"); nullopt
    // when the server is not FerretDB or its version cannot be read.
    std::optional<int> ferretDbMajorVersion() const;
    UpdateAtomicity updateAtomicity() const;
};

} // namespace oe
