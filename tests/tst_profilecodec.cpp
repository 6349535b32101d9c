// What resumable and parallel scans rest on: a profile saved and restored (ProfileCodec) is the
// same profile, and profiles of disjoint parts absorbed into one and renumbered are the profile
// of one builder over all the documents, tails cut to small capacities included.
#include "BsonFixtures.h"
#include "analysis/CollectionProfile.h"
#include "analysis/ProfileBuilder.h"
#include "scan/ProfileCodec.h"
#include "shape/ShapeDetector.h"

#include <QFile>
#include <QTest>

using namespace oe;

namespace {

QList<QByteArray> documents()
{
    QList<QByteArray> docs;
    for (int i = 0; i < 600; ++i) {
        // Ties everywhere: 13 sizes, 17 array lengths.
        if (i % 3 == 0)
            docs << fixtures::documentOfSize(i, 64 + (i % 13) * 16);
        else if (i % 5 == 1) // shape: mixed types, keys, a rare field, element types
            docs << fixtures::bson(
                QStringLiteral(R"({"_id": %1, "v": %2, "m": {"k%3": 1, "k%4": [1, "a"]}%5})")
                    .arg(i)
                    .arg(i % 11 == 0 ? QStringLiteral("\"s\"") : QString::number(i))
                    .arg(i % 7)
                    .arg(i % 4)
                    .arg(i % 101 == 0 ? QStringLiteral(R"(, "rare": {"x": 1})") : QString())
                    .toUtf8()
                    .constData());
        else
            docs << fixtures::documentWithArray(i, (i * 7) % 17, i % 2 ? "items" : "tags");
    }
    return docs;
}

ProfileBuilder::Limits smallLimits()
{
    ProfileBuilder::Limits limits;
    limits.largestDocumentsCapacity = 20;
    limits.longestArraysCapacity = 20;
    limits.perPathCapacity = 10;
    limits.shapeDocumentsCapacity = 20;
    limits.bigScalarBytes = 100; // the padded documents' strings
    return limits;
}

void add(ProfileBuilder &builder, const QByteArray &doc, std::uint64_t index)
{
    QVERIFY(builder.addDocument(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                std::uint32_t(doc.size()), index, nullptr));
}

QString tailText(const CandidateTail &t)
{
    QStringList parts;
    for (const TailCandidate &c : t.sorted())
        parts << QStringLiteral("%1@%2:%3:%4:%5")
                     .arg(c.value)
                     .arg(c.docIndex)
                     .arg(c.docSize)
                     .arg(QString::fromLatin1(QByteArray::fromStdString(c.rawId).toHex()),
                          QString::fromStdString(c.path));
    for (std::uint64_t threshold : {0, 1, 5, 10, 100, 200})
        parts << QString::number(t.isCompleteAbove(threshold));
    return parts.join(QLatin1Char(' '));
}

QString distributionText(const Distribution &d)
{
    QStringList parts{QString::number(d.count()), QString::number(d.min()),
                      QString::number(d.max()), QString::number(d.sum())};
    for (double q : {0.0, 0.25, 0.5, 0.9, 0.99, 1.0})
        parts << QString::number(d.quantile(q));
    for (const auto &bin : d.histogram().bins())
        parts << QStringLiteral("[%1,%2)=%3").arg(bin.lower).arg(bin.upper).arg(bin.count);
    return parts.join(QLatin1Char(' '));
}

QString typesText(const TypeCounts &t)
{
    QStringList parts;
    for (std::uint64_t n : t.n)
        parts << QString::number(n);
    return parts.join(QLatin1Char(':'));
}

// A field's shape, as text: types, examples, keys, big values.
QString shapeText(const FieldShape &s)
{
    QStringList parts{typesText(s.types), typesText(s.elementTypes)};
    for (const ShapeExample &e : s.examples)
        parts << QStringLiteral("%1@%2:%3")
                     .arg(e.slot)
                     .arg(e.docIndex)
                     .arg(QString::fromLatin1(QByteArray::fromStdString(e.rawId).toHex()));
    parts << distributionText(s.keyCounts) << QString::number(s.distinctKeys)
          << QString::number(s.keysPastCap) << QString::number(s.dataLikeKeys)
          << QString::number(s.keysAsData) << tailText(s.mostKeys) << QString::number(s.bigValues)
          << tailText(s.biggestValues);
    return parts.join(QLatin1Char(' '));
}

// Everything a report reads of a profile, as text.
QString text(const CollectionProfile &p)
{
    QStringList lines{QString::number(p.documents),     QString::number(p.bytesRead),
                      distributionText(p.sizes),        tailText(p.largestDocuments),
                      tailText(p.longestArrays),        distributionText(p.shape.fieldCounts),
                      distributionText(p.shape.depths), tailText(p.shape.mostFields),
                      tailText(p.shape.deepest),        QString::number(p.shape.bigScalarBytes)};
    for (const FieldProfile &f : p.fields)
        lines << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8 %9")
                     .arg(QString::fromStdString(f.path))
                     .arg(f.typeMask)
                     .arg(f.elementTypeMask)
                     .arg(f.presentDocuments)
                     .arg(f.values)
                     .arg(f.bytes)
                     .arg(f.arrays)
                     .arg(f.elementCount)
                     .arg(f.elementBytes)
              << distributionText(f.lengths) << tailText(f.longestPerDocument)
              << shapeText(f.shape);
    return lines.join(QLatin1Char('\n'));
}

CollectionProfile whole(const QList<QByteArray> &docs)
{
    ProfileBuilder builder(smallLimits());
    for (int i = 0; i < docs.size(); ++i)
        add(builder, docs[i], std::uint64_t(i));
    return builder.takeProfile();
}

} // namespace

class TestProfileCodec : public QObject
{
    Q_OBJECT

private slots:
    void roundTripIsExact()
    {
        const CollectionProfile p = whole(documents());
        const QByteArray bytes = ProfileCodec::encode(p);
        const auto back = ProfileCodec::decode(bytes);
        QVERIFY(back);
        QCOMPARE(ProfileCodec::encode(*back), bytes); // (text() compacts the tails: first)
        QCOMPARE(text(*back), text(p));
    }

    // A state an older build saved (format 2, without the shape) reads with its figures and
    // no shape: its documents count as not walked, so the shape is not reported for it.
    void aVersionTwoStateReadsWithoutTheShape()
    {
        const CollectionProfile p = whole(documents());
        QByteArray bytes = ProfileCodec::encode(p);
        QVERIFY(p.shape.walkedDocuments() == p.documents);
        const auto v3 = ProfileCodec::decode(bytes);
        QVERIFY(v3);
        QCOMPARE(v3->shape.walkedDocuments(), p.documents);
        // Written by the build at 1441b03 (ProfileCodec format 2) from the three documents
        // {_id: 1, items: [1, 2, 3, 4], v: 1}, {_id: 2, items: [1], v: "s"} and
        // {_id: 3, items: [], m: {a: 1}}, hex encoded.
        QFile file(QFINDTESTDATA("data/profile-state-v2.hex"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray older = QByteArray::fromHex(file.readAll().trimmed());
        QCOMPARE(older.mid(4, 4), QByteArray::fromHex("00000002"));
        const auto v2 = ProfileCodec::decode(older);
        QVERIFY(v2);
        QCOMPARE(v2->documents, 3u);
        QCOMPARE(v2->shape.walkedDocuments(), 0u);
        QVERIFY(v2->field("items"));
        QCOMPARE(v2->field("items")->lengths.max(), 4u);
        QCOMPARE(v2->field("items")->shape.types.total(), 0u);
    }

    // A state of format 3 (issue 37's builds: the shape, no version tally) is format 4 without
    // the tally at its end: cut off here, it reads, and the versions of a scan resumed from it
    // are not reported (no document was looked at for a version field), with the reason.
    void aVersionThreeStateReadsWithoutTheVersions()
    {
        QList<QByteArray> docs;
        for (int i = 0; i < 10; ++i)
            docs << fixtures::bson(QStringLiteral(R"({"_id": %1, "schema_version": %2})")
                                       .arg(i)
                                       .arg(i % 2 + 1)
                                       .toUtf8()
                                       .constData());
        const CollectionProfile p = whole(docs);
        QCOMPARE(p.versions.field("schema_version")->groups.size(), std::size_t(2));
        const QByteArray bytes = ProfileCodec::encode(p);
        CollectionProfile untallied = p;
        untallied.versions = VersionTally();
        QByteArray older = ProfileCodec::encode(untallied);
        older.chop(8); // the tally's field count, a quint64 0
        older.replace(4, 4, QByteArray::fromHex("00000003"));
        QCOMPARE(bytes.mid(8, older.size() - 8), older.mid(8)); // the same figures before it
        const auto v3 = ProfileCodec::decode(older);
        QVERIFY(v3);
        QCOMPARE(v3->documents, 10u);
        QVERIFY(v3->versions.empty());
        const ShapeReport shape = ShapeDetector::detect(*v3, {}, {});
        QVERIFY(shape.measured);
        QVERIFY(!shape.versions.inEffect());
        QCOMPARE(shape.versions.note,
                 QStringLiteral("schema versions not counted in every document (a scan resumed "
                                "from a state an older version saved)"));
        // The current format keeps them.
        const auto v4 = ProfileCodec::decode(bytes);
        QVERIFY(v4);
        QCOMPARE(ShapeDetector::detect(*v4, {}, {}).versions.shares.size(), std::size_t(2));
    }

    void damagedBytesAreRefused()
    {
        const QByteArray bytes = ProfileCodec::encode(whole(documents()));
        QVERIFY(!ProfileCodec::decode(QByteArray()));
        QVERIFY(!ProfileCodec::decode(bytes.left(bytes.size() / 2)));
        QVERIFY(!ProfileCodec::decode(bytes + "x"));
        QByteArray wrongMagic = bytes;
        wrongMagic[0] = 'X';
        QVERIFY(!ProfileCodec::decode(wrongMagic));
    }

    // Parts numbered (part << 40 | position), absorbed in any order, renumbered by offsets:
    // the single builder's profile, whatever the cut.
    void absorbedPartsEqualOneBuilder_data()
    {
        QTest::addColumn<QList<int>>("cuts");
        QTest::newRow("1 part") << QList<int>{};
        QTest::newRow("2 parts") << QList<int>{300};
        QTest::newRow("4 uneven parts") << QList<int>{1, 50, 51};
        QTest::newRow("7 parts") << QList<int>{86, 172, 258, 344, 430, 516};
    }
    void absorbedPartsEqualOneBuilder()
    {
        QFETCH(QList<int>, cuts);
        const QList<QByteArray> docs = documents();
        QList<int> starts{0};
        starts << cuts;
        starts << int(docs.size());
        std::vector<CollectionProfile> parts;
        for (int part = 0; part + 1 < starts.size(); ++part) {
            ProfileBuilder builder(smallLimits());
            CollectionProfile profile;
            for (int i = starts[part]; i < starts[part + 1]; ++i) {
                add(builder, docs[i],
                    (std::uint64_t(part) << 40) | std::uint64_t(i - starts[part]));
                if (i % 97 == 0) // a resumed scan folds its builder in from time to time
                    profile.absorb(builder.takeProfile());
            }
            profile.absorb(builder.takeProfile());
            parts.push_back(*ProfileCodec::decode(ProfileCodec::encode(profile)));
        }
        CollectionProfile merged;
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) // order must not matter
            merged.absorb(std::move(*it));
        merged.renumberDocuments([&](std::uint64_t index) {
            return std::uint64_t(starts[int(index >> 40)]) +
                   (index & ((std::uint64_t(1) << 40) - 1));
        });
        const QStringList got = text(merged).split(QLatin1Char('\n'));
        const QStringList expected = text(whole(docs)).split(QLatin1Char('\n'));
        QCOMPARE(got.size(), expected.size());
        for (int i = 0; i < got.size(); ++i)
            QCOMPARE(got[i].right(160), expected[i].right(160));
    }
};

QTEST_GUILESS_MAIN(TestProfileCodec)
#include "tst_profilecodec.moc"
