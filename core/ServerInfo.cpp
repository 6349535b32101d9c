#include "ServerInfo.h"

namespace oe {

QString ServerInfo::topologyName() const
{
    switch (topology) {
    case Topology::Standalone:
        return QStringLiteral("standalone");
    case Topology::ReplicaSet:
        return QStringLiteral("replica set %1").arg(setName);
    case Topology::Sharded:
        return QStringLiteral("sharded cluster (mongos)");
    }
    return {};
}

QString ServerInfo::summary() const
{
    QString line =
        QStringLiteral("%1: %2 %3, %4")
            .arg(hosts, isFerretDb ? QStringLiteral("FerretDB") : QStringLiteral("MongoDB"),
                 isFerretDb && !ferretDbVersion.isEmpty()
                     ? ferretDbVersion + QStringLiteral(" (MongoDB ") + version + QLatin1Char(')')
                     : version,
                 topologyName());
    auto yesNo = [](bool b) { return b ? QStringLiteral("yes") : QStringLiteral("no"); };
    line += QStringLiteral("; $sample %1, $bsonSize %2, transactions %3")
                .arg(yesNo(supportsSample), yesNo(supportsBsonSize), yesNo(supportsTransactions));
    return line;
}

} // namespace oe
