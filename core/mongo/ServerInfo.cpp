#include "mongo/ServerInfo.h"

#include <QRegularExpression>

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
    if (!shards.isEmpty())
        line += QStringLiteral(" of %1 shard(s)").arg(shards.size());
    auto yesNo = [](bool b) { return b ? QStringLiteral("yes") : QStringLiteral("no"); };
    line += QStringLiteral("; $sample %1, $bsonSize %2, transactions %3")
                .arg(yesNo(supportsSample), yesNo(supportsBsonSize), yesNo(supportsTransactions));
    return line;
}

std::optional<int> ServerInfo::ferretDbMajorVersion() const
{
    if (!isFerretDb)
        return std::nullopt;
    // "v1.24.2", "1.24.2", "2.0.0-rc.2", "v1.24.2-5-gabc1234" (a development build)
    static const QRegularExpression major(QStringLiteral("^[vV]?(\\d+)(?:[.\\-+]|$)"));
    const QRegularExpressionMatch m = major.match(ferretDbVersion.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const int value = m.captured(1).toInt(&ok);
    return ok ? std::optional<int>(value) : std::nullopt;
}

ServerInfo::UpdateAtomicity ServerInfo::updateAtomicity() const
{
    if (!isFerretDb)
        return UpdateAtomicity::Atomic;
    const std::optional<int> major = ferretDbMajorVersion();
    if (!major)
        return UpdateAtomicity::Unknown;
    return *major >= 2 ? UpdateAtomicity::Atomic : UpdateAtomicity::NotAtomic;
}

} // namespace oe
