#pragma once

#include <QString>
#include <QStringList>

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
    bool supportsTransactions = false; // multi-document transactions
    QStringList notes;                 // fallbacks in words, for the user

    QString topologyName() const;
    QString summary() const; // one line
};

} // namespace oe
