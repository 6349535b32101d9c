#include "scan/ScanCheckpoint.h"

#include "output/StagedOutput.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace oe {

namespace {
constexpr quint32 kMagic = 0x4f455343;    // "OESC"
constexpr quint32 kVersion = 3;           // 3: the measurement plan after the time
constexpr quint32 kOldestVersion = 2;     // 2: a SHA-256 of everything before it at the end
constexpr qsizetype kChecksumBytes = 32;  // SHA-256
constexpr qsizetype kHeaderBytes = 4 + 4; // magic, version

QString unusable(const QString &path, const QString &why)
{
    return QStringLiteral("the scan state %1 %2").arg(path, why);
}

QDataStream &operator<<(QDataStream &out, const ScanCheckpoint::Range &r)
{
    return out << r.done << r.lastId << quint64(r.documents) << quint64(r.below) << quint64(r.above)
               << r.profile;
}

QDataStream &operator>>(QDataStream &in, ScanCheckpoint::Range &r)
{
    quint64 documents = 0, below = 0, above = 0;
    in >> r.done >> r.lastId >> documents >> below >> above >> r.profile;
    r.documents = documents;
    r.below = below;
    r.above = above;
    return in;
}
} // namespace

QString ScanCheckpoint::pathFor(const QString &identity)
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
                         QStringLiteral("/outlier-explorer/scans/");
    const QByteArray hash = QCryptographicHash::hash(identity.toUtf8(), QCryptographicHash::Sha1);
    return base + QString::fromLatin1(hash.toHex().left(24)) + QStringLiteral(".oescan");
}

std::optional<ScanCheckpoint> ScanCheckpoint::load(const QString &identity, QString *error)
{
    error->clear();
    QFile file(pathFor(identity));
    if (!file.exists())
        return std::nullopt;
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read the scan state %1: %2")
                     .arg(file.fileName(), file.errorString());
        return std::nullopt;
    }
    const QByteArray bytes = file.readAll();
    // Every byte is checked, so a damaged state never resumes into wrong reports.
    QDataStream header(bytes);
    quint32 magic = 0, version = 0;
    header >> magic >> version;
    if (magic != kMagic || version < kOldestVersion || version > kVersion) {
        *error = unusable(file.fileName(), QStringLiteral("is not one this version wrote"));
        return std::nullopt;
    }
    const QByteArray body = bytes.chopped(std::min(kChecksumBytes, bytes.size()));
    if (bytes.size() < kHeaderBytes + kChecksumBytes ||
        QCryptographicHash::hash(body, QCryptographicHash::Sha256) != bytes.right(kChecksumBytes)) {
        *error =
            unusable(file.fileName(), QStringLiteral("is damaged (its checksum does not match)"));
        return std::nullopt;
    }
    QDataStream in(body.sliced(kHeaderBytes));
    in.setVersion(QDataStream::Qt_6_0);
    ScanCheckpoint c;
    qint32 origin = 0;
    quint64 sampled = 0, boundaries = 0, ranges = 0;
    in >> c.identity >> origin >> c.plan.pivot >> sampled >> boundaries;
    if (in.status() != QDataStream::Ok || c.identity != identity || boundaries > 100000) {
        *error = unusable(file.fileName(),
                          QStringLiteral("is not one this version wrote for this scan"));
        return std::nullopt;
    }
    c.plan.origin = IdRangePlan::Origin(origin);
    c.plan.sampled = std::size_t(sampled);
    c.plan.boundaries.resize(std::size_t(boundaries));
    for (QByteArray &b : c.plan.boundaries)
        in >> b;
    in >> ranges;
    if (ranges > 100001) {
        *error = unusable(file.fileName(), QStringLiteral("is damaged"));
        return std::nullopt;
    }
    c.ranges.resize(std::size_t(ranges));
    for (Range &r : c.ranges)
        in >> r;
    in >> c.seconds;
    if (version >= 3)
        in >> c.measurePlan;
    const std::size_t expected = std::size_t(c.plan.typedRanges()) + (c.plan.isWhole() ? 0u : 1u);
    if (in.status() != QDataStream::Ok || c.ranges.size() != expected) {
        *error = unusable(file.fileName(), QStringLiteral("is damaged"));
        return std::nullopt;
    }
    return c;
}

bool ScanCheckpoint::save(QString *error) const
{
    const QString path = pathFor(identity);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QByteArray bytes;
    {
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out << kMagic << kVersion << identity << qint32(plan.origin) << plan.pivot
            << quint64(plan.sampled) << quint64(plan.boundaries.size());
        for (const QByteArray &b : plan.boundaries)
            out << b;
        out << quint64(ranges.size());
        for (const Range &r : ranges)
            out << r;
        out << seconds << measurePlan;
    }
    bytes += QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
    SourceError failure;
    if (!StagedOutput::writeFile(path, bytes, &failure)) {
        *error = QStringLiteral("cannot write the scan state: %1").arg(failure.toString());
        return false;
    }
    return true;
}

void ScanCheckpoint::remove(const QString &identity)
{
    QFile::remove(pathFor(identity));
}

} // namespace oe
