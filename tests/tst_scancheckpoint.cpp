// The state an interrupted scan resumes from (ScanCheckpoint): saved and loaded back the same;
// any damage to the file (one flipped byte anywhere: header, plan, ranges, profiles, checksum)
// refused with the file named, never resumed into wrong reports; written without following a
// symbolic link at its path.
#include "measure/MeasurePlan.h"
#include "scan/ScanCheckpoint.h"

#include <QCryptographicHash>
#include <QDataStream>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace oe;

namespace {

const QString kIdentity = QStringLiteral("cluster=test ns=db.c filter={} ranges=3");

ScanCheckpoint sampleState()
{
    ScanCheckpoint c;
    c.identity = kIdentity;
    c.plan.origin = IdRangePlan::Origin::ServerSample;
    c.plan.pivot = QByteArray("\x10\x01\x00\x00\x00", 5); // int32 1
    c.plan.boundaries = {QByteArray("\x10\x64\x00\x00\x00", 5),
                         QByteArray("\x10\xc8\x00\x00\x00", 5)};
    c.plan.sampled = 4096;
    c.ranges.resize(std::size_t(c.plan.typedRanges()) + 1); // the typed ranges and the leftover
    for (std::size_t r = 0; r < c.ranges.size(); ++r) {
        c.ranges[r].done = r == 0;
        c.ranges[r].lastId = QByteArray("\x10", 1) + QByteArray(4, char(r + 1));
        c.ranges[r].documents = 1000 * (r + 1);
        c.ranges[r].below = r;
        c.ranges[r].above = 2 * r;
        c.ranges[r].profile = QByteArray(300, char('a' + r)); // opaque here
    }
    c.seconds = 12.5;
    MeasurePlan plan;
    plan.summaries.push_back({{"feed", "activities"}, {{"tags", true}}, 900});
    c.measurePlan = plan.encode();
    return c;
}

// The state as the build before server-side measurement wrote it (version 2: no measurement
// plan after the scanning time), byte for byte as that build's ScanCheckpoint::save did.
QByteArray versionTwoFile(const ScanCheckpoint &c)
{
    QByteArray bytes;
    {
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out << quint32(0x4f455343) << quint32(2) << c.identity << qint32(c.plan.origin)
            << c.plan.pivot << quint64(c.plan.sampled) << quint64(c.plan.boundaries.size());
        for (const QByteArray &b : c.plan.boundaries)
            out << b;
        out << quint64(c.ranges.size());
        for (const ScanCheckpoint::Range &r : c.ranges)
            out << r.done << r.lastId << quint64(r.documents) << quint64(r.below)
                << quint64(r.above) << r.profile;
        out << c.seconds;
    }
    return bytes + QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool overwrite(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

} // namespace

class TestScanCheckpoint : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8());
    }

    void init() { QFile::remove(ScanCheckpoint::pathFor(kIdentity)); }

    void savedStateLoadsBackTheSame()
    {
        QString error;
        QVERIFY2(sampleState().save(&error), qPrintable(error));
        const auto loaded = ScanCheckpoint::load(kIdentity, &error);
        QVERIFY2(loaded && error.isEmpty(), qPrintable(error));
        const ScanCheckpoint expected = sampleState();
        QCOMPARE(loaded->plan.boundaries, expected.plan.boundaries);
        QCOMPARE(loaded->plan.pivot, expected.plan.pivot);
        QCOMPARE(loaded->ranges.size(), expected.ranges.size());
        for (std::size_t r = 0; r < expected.ranges.size(); ++r) {
            QCOMPARE(loaded->ranges[r].lastId, expected.ranges[r].lastId);
            QCOMPARE(loaded->ranges[r].documents, expected.ranges[r].documents);
            QCOMPARE(loaded->ranges[r].profile, expected.ranges[r].profile);
        }
        QCOMPARE(loaded->seconds, expected.seconds);
        QCOMPARE(loaded->measurePlan, expected.measurePlan);
        QCOMPARE(MeasurePlan::decode(loaded->measurePlan)->summaries.at(0).elementBytesLimit,
                 std::uint64_t(900));
        // No file at all: nothing to resume, and no error.
        QFile::remove(ScanCheckpoint::pathFor(kIdentity));
        QVERIFY(!ScanCheckpoint::load(kIdentity, &error) && error.isEmpty());
    }

    // A state an older build saved (version 2) still resumes, as a client-side scan: it has no
    // measurement plan, which is how that build measured.
    void versionTwoStateResumesClientSide()
    {
        ScanCheckpoint old = sampleState();
        old.measurePlan.clear();
        const QString path = ScanCheckpoint::pathFor(kIdentity);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QVERIFY(overwrite(path, versionTwoFile(old)));
        QString error;
        const auto loaded = ScanCheckpoint::load(kIdentity, &error);
        QVERIFY2(loaded && error.isEmpty(), qPrintable(error));
        QVERIFY(loaded->measurePlan.isEmpty());
        QCOMPARE(loaded->ranges.size(), old.ranges.size());
        QCOMPARE(loaded->ranges.back().profile, old.ranges.back().profile);
        QCOMPARE(loaded->seconds, old.seconds);
        // Saved again, it is this version's file, plan included.
        ScanCheckpoint now = *loaded;
        now.measurePlan = sampleState().measurePlan;
        QVERIFY2(now.save(&error), qPrintable(error));
        QCOMPARE(ScanCheckpoint::load(kIdentity, &error)->measurePlan, now.measurePlan);
        QVERIFY(contents(path) != versionTwoFile(now));
    }

    // Issue 24.6: one flipped byte gave wrong reports with exit 0 (11 of 20 flips). Every
    // position is tried here, spread over the whole file, and each is refused.
    void everyFlippedByteIsRefused()
    {
        QString error;
        QVERIFY2(sampleState().save(&error), qPrintable(error));
        const QString path = ScanCheckpoint::pathFor(kIdentity);
        const QByteArray good = contents(path);
        QVERIFY(good.size() > 1000);
        const qsizetype trials = 64;
        int refused = 0;
        for (qsizetype t = 0; t < trials; ++t) {
            const qsizetype at = t == trials - 1 ? good.size() - 1 : t * good.size() / trials;
            for (const char mask : {'\x01', '\x80'}) {
                QByteArray bad = good;
                bad[at] = char(bad[at] ^ mask);
                QVERIFY(overwrite(path, bad));
                const auto loaded = ScanCheckpoint::load(kIdentity, &error);
                QVERIFY2(!loaded, qPrintable(QStringLiteral("byte %1 of %2 flipped (mask %3) "
                                                            "loaded as a valid state")
                                                 .arg(at)
                                                 .arg(good.size())
                                                 .arg(int(quint8(mask)))));
                QVERIFY2(error.contains(path) && !error.contains(QLatin1Char('\n')),
                         qPrintable(error));
                ++refused;
            }
        }
        QCOMPARE(refused, int(2 * trials));
        // A cut-off file (a crash mid-copy) is refused as well.
        QVERIFY(overwrite(path, good.left(good.size() / 2)));
        QVERIFY(!ScanCheckpoint::load(kIdentity, &error) && error.contains(path));
        QVERIFY(overwrite(path, good));
        QVERIFY(ScanCheckpoint::load(kIdentity, &error));
    }

    // The state goes through the staged output: a link at its path is replaced, its target
    // never written.
    void aSymbolicLinkAtTheStateIsReplaced()
    {
        const QString path = ScanCheckpoint::pathFor(kIdentity);
        const QString sentinel = m_dir.filePath(QStringLiteral("sentinel"));
        QVERIFY(overwrite(sentinel, "precious\n"));
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QVERIFY(QFile::link(sentinel, path));
        QString error;
        QVERIFY2(sampleState().save(&error), qPrintable(error));
        QCOMPARE(contents(sentinel), QByteArray("precious\n"));
        QVERIFY(!QFileInfo(path).isSymLink() && QFileInfo(path).isFile());
        QVERIFY(ScanCheckpoint::load(kIdentity, &error));
    }
};

QTEST_GUILESS_MAIN(TestScanCheckpoint)
#include "tst_scancheckpoint.moc"
