// IdOrder (MongoDB's order of _id values, as raw BSON) and IdRangePlan (where a parallel scan
// cuts the _id space): the order across and within types, the cut type, quantile boundaries,
// the chunk boundaries of a sharded collection (simulated: no mongos runs here).
#include "bson/IdOrder.h"
#include "scan/IdRangePlan.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cstring>

using namespace oe;

namespace {
template <typename T> QByteArray raw(int type, T value)
{
    QByteArray r(1, char(type));
    r.append(reinterpret_cast<const char *>(&value), sizeof value); // little-endian host
    return r;
}
QByteArray i32(qint32 v)
{
    return raw(0x10, v);
}
QByteArray i64(qint64 v)
{
    return raw(0x12, v);
}
QByteArray dbl(double v)
{
    return raw(0x01, v);
}
QByteArray date(qint64 ms)
{
    return raw(0x09, ms);
}
QByteArray oid(const char *hex)
{
    return QByteArray(1, char(0x07)) + QByteArray::fromHex(hex);
}
QByteArray str(const QByteArray &s)
{
    QByteArray r(1, char(0x02));
    const qint32 n = qint32(s.size() + 1);
    r.append(reinterpret_cast<const char *>(&n), 4);
    return r + s + '\0';
}
QByteArray null()
{
    return QByteArray(1, char(0x0A));
}
QByteArray boolean(bool b)
{
    return QByteArray(1, char(0x08)) + char(b ? 1 : 0);
}
} // namespace

Q_DECLARE_METATYPE(QList<QByteArray>)

class TestIdRangePlan : public QObject
{
    Q_OBJECT

private slots:
    // A list in ascending MongoDB order: every pair must compare as it stands.
    void orderMatchesTheServer_data()
    {
        QTest::addColumn<QList<QByteArray>>("ascending");
        QTest::newRow("types") << QList<QByteArray>{
            null(),         i32(-5),       str("a"), oid("000000000000000000000001"),
            boolean(false), boolean(true), date(0)};
        QTest::newRow("numbers across types") << QList<QByteArray>{dbl(-1.5),
                                                                   i32(0),
                                                                   dbl(0.5),
                                                                   i64(1),
                                                                   i32(2),
                                                                   dbl(2.25),
                                                                   i64(qint64(1) << 53),
                                                                   i64((qint64(1) << 53) + 1)};
        QTest::newRow("strings by bytes")
            << QList<QByteArray>{str(""), str("A"), str("a"), str("ab"), str("b"), str("\xc3\xa9")};
        QTest::newRow("ObjectIds big-endian")
            << QList<QByteArray>{oid("000000000000000000000001"), oid("0000000000000000000000ff"),
                                 oid("650000000000000000000000"), oid("ff0000000000000000000000")};
        QTest::newRow("dates signed")
            << QList<QByteArray>{date(-86400000), date(0), date(1700000000000)};
    }
    void orderMatchesTheServer()
    {
        QFETCH(QList<QByteArray>, ascending);
        for (int i = 0; i < ascending.size(); ++i)
            for (int j = 0; j < ascending.size(); ++j) {
                const int c = IdOrder::compare(ascending[i], ascending[j]);
                QVERIFY2((i < j && c < 0) || (i == j && c == 0) || (i > j && c > 0),
                         qPrintable(QStringLiteral("%1 vs %2: %3").arg(i).arg(j).arg(c)));
            }
    }

    void sampleQuantilesCutEvenly()
    {
        std::vector<QByteArray> ids;
        for (int i = 0; i < 1000; ++i)
            ids.push_back(i32(i * 2));
        std::shuffle(ids.begin(), ids.end(), *QRandomGenerator::global());
        const IdRangePlan plan = IdRangePlan::fromSample(ids, 4, IdRangePlan::Origin::ServerSample);
        QCOMPARE(plan.typedRanges(), 4);
        QCOMPARE(int(plan.boundaries.size()), 3);
        QCOMPARE(plan.boundaries[0], i32(500));
        QCOMPARE(plan.boundaries[1], i32(1000));
        QCOMPARE(plan.boundaries[2], i32(1500));
        QCOMPARE(plan.sampled, std::size_t(1000));
        QVERIFY(plan.describe().startsWith(QStringLiteral("4 ranges of number _ids")));
    }

    // The cut type is the most frequent cuttable one; the others go to the leftover cursor.
    void theMostFrequentTypeIsCut()
    {
        std::vector<QByteArray> ids;
        for (int i = 0; i < 300; ++i)
            ids.push_back(oid(QByteArray::number(100000 + i).rightJustified(24, '0').constData()));
        for (int i = 0; i < 200; ++i)
            ids.push_back(str("user-" + QByteArray::number(i)));
        ids.push_back(null());
        ids.push_back(boolean(true));
        const IdRangePlan plan =
            IdRangePlan::fromSample(ids, 3, IdRangePlan::Origin::ReservoirSample);
        QCOMPARE(plan.cutTypeRank(), IdOrder::typeRank(0x07));
        QCOMPARE(plan.typedRanges(), 3);
        for (const QByteArray &b : plan.boundaries)
            QCOMPARE(int(b[0]), 0x07);
        QVERIFY(std::is_sorted(plan.boundaries.begin(), plan.boundaries.end(),
                               [](auto &a, auto &b) { return IdOrder::compare(a, b) < 0; }));
    }

    void fewDistinctValuesMakeFewerRanges()
    {
        std::vector<QByteArray> ids(100, i32(7));
        ids.push_back(i32(9));
        const IdRangePlan plan = IdRangePlan::fromSample(ids, 7, IdRangePlan::Origin::ServerSample);
        QVERIFY(!plan.isWhole());
        QVERIFY(plan.typedRanges() <= 2);
        QCOMPARE(IdRangePlan::fromSample({}, 4, IdRangePlan::Origin::ServerSample).isWhole(), true);
        // Only uncuttable types (embedded documents, booleans): one cursor over everything.
        const IdRangePlan whole =
            IdRangePlan::fromSample({boolean(true), null()}, 4, IdRangePlan::Origin::ServerSample);
        QVERIFY(whole.isWhole());
        QCOMPARE(whole.typedRanges(), 1);
    }

    // A collection sharded on {_id: 1} with 12 chunks: 3 ranges of 4 chunks each.
    void chunkBoundsGroupChunks()
    {
        std::vector<QByteArray> bounds;
        for (int i = 1; i <= 11; ++i) // the first chunk's lower bound is MinKey: left out
            bounds.push_back(i64(i * 1000));
        const IdRangePlan plan = IdRangePlan::fromChunkBounds(bounds, 3);
        QCOMPARE(plan.origin, IdRangePlan::Origin::ShardChunks);
        QCOMPARE(int(plan.boundaries.size()), 2);
        QCOMPARE(plan.boundaries[0], i64(4000));
        QCOMPARE(plan.boundaries[1], i64(8000));
        QVERIFY(IdRangePlan::fromChunkBounds({}, 3).isWhole());
    }
};

QTEST_GUILESS_MAIN(TestIdRangePlan)
#include "tst_idrangeplan.moc"
