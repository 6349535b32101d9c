#include "BsonFixtures.h"
#include "analysis/ProfileBuilder.h"
#include "bson/BsonTypes.h"
#include "bson/DocumentId.h"

#include <QTest>

using namespace oe;

class TestProfileBuilder : public QObject
{
    Q_OBJECT

private:
    static CollectionProfile profileOf(const QList<QByteArray> &docs,
                                       ProfileBuilder::Limits limits = {})
    {
        ProfileBuilder builder(limits);
        std::uint64_t index = 0;
        for (const QByteArray &d : docs) {
            SourceError fault;
            const bool ok =
                builder.addDocument(reinterpret_cast<const std::uint8_t *>(d.constData()),
                                    std::uint32_t(d.size()), index++, &fault);
            if (!ok)
                qFatal("unexpected fault: %s", qPrintable(fault.toString()));
        }
        return builder.takeProfile();
    }
    static QStringList paths(const CollectionProfile &p)
    {
        QStringList out;
        for (const auto &f : p.fields)
            out << QString::fromStdString(f.path);
        return out;
    }

private slots:
    void pathsUseDotNotationThroughArrays()
    {
        const auto p = profileOf({fixtures::bson(R"({"_id": 1, "name": "a",
            "activities": [{"type": "post", "tags": ["x", "y"]}, {"type": "like"}],
            "stats": {"history": [1, 2, 3], "deep": {"x": null}},
            "grid": [[1, 2], [3], []]})")});
        QCOMPARE(
            paths(p),
            (QStringList{QStringLiteral("_id"), QStringLiteral("activities"),
                         QStringLiteral("activities.tags"), QStringLiteral("activities.type"),
                         QStringLiteral("grid"), QStringLiteral("grid.$[]"), QStringLiteral("name"),
                         QStringLiteral("stats"), QStringLiteral("stats.deep"),
                         QStringLiteral("stats.deep.x"), QStringLiteral("stats.history")}));
        const FieldProfile *grid = p.field("grid.$[]");
        QVERIFY(grid);
        QCOMPARE(grid->arrays, 3u);
        QCOMPARE(grid->lengths.max(), 2u);
        QCOMPARE(grid->lengths.min(), 0u);
        QVERIFY(grid->insideArray);
        QVERIFY(p.field("activities.tags")->insideArray);
        QVERIFY(!p.field("stats.history")->insideArray);
        QCOMPARE(p.field("activities.type")->values, 2u);
        QCOMPARE(p.field("activities")->lengths.max(), 2u);
    }

    // Profiles of parts (a range scan's ranges, a resumed scan's saved part) merge into the one
    // profile of all the documents: a path whose parent is an array in one part only is still
    // inside an array (it was not, when the first part merged had it under a document).
    void partsMergeIntoTheWholeProfile()
    {
        const QList<QByteArray> first{fixtures::bson(R"({"_id": 1, "m": {"a": [1, 2]}})")};
        const QList<QByteArray> second{fixtures::bson(R"({"_id": 2, "m": [{"a": [3]}, 4]})")};
        CollectionProfile merged = profileOf(first);
        merged.absorb(profileOf(second));
        const CollectionProfile whole = profileOf(first + second);
        QCOMPARE(paths(merged), paths(whole));
        for (const FieldProfile &f : whole.fields) {
            const FieldProfile *m = merged.field(f.path);
            QVERIFY(m);
            QCOMPARE(m->insideArray, f.insideArray);
            QCOMPARE(m->typeMask, f.typeMask);
            QCOMPARE(m->arrays, f.arrays);
            QCOMPARE(m->bytes, f.bytes);
        }
        QVERIFY(merged.field("m.a")->insideArray);
    }

    void typesAreCollected()
    {
        const auto p = profileOf(
            {fixtures::bson(
                 R"({"_id": {"$oid": "5f0000000000000000000001"}, "v": 1, "tags": ["a", 2]})"),
             fixtures::bson(
                 R"({"_id": {"$oid": "5f0000000000000000000002"}, "v": "one", "tags": []})"),
             fixtures::bson(
                 R"({"_id": {"$oid": "5f0000000000000000000003"}, "v": {"$numberLong": "5"}})")});
        QCOMPARE(BsonTypes::names(p.field("_id")->typeMask),
                 QStringList{QStringLiteral("objectId")});
        QCOMPARE(
            BsonTypes::names(p.field("v")->typeMask),
            (QStringList{QStringLiteral("string"), QStringLiteral("int"), QStringLiteral("long")}));
        QCOMPARE(BsonTypes::names(p.field("tags")->typeMask), QStringList{QStringLiteral("array")});
        QCOMPARE(BsonTypes::names(p.field("tags")->elementTypeMask),
                 (QStringList{QStringLiteral("string"), QStringLiteral("int")}));
        QCOMPARE(p.field("tags")->presentDocuments, 2u);
        QCOMPARE(p.field("v")->presentDocuments, 3u);
    }

    void presenceCountsDocumentsNotOccurrences()
    {
        const auto p =
            profileOf({fixtures::bson(R"({"a": [{"x": 1}, {"x": 2}, {"x": 3}]})"),
                       fixtures::bson(R"({"a": [{"y": 1}]})"), fixtures::bson(R"({"b": 1})")});
        QCOMPARE(p.field("a.x")->presentDocuments, 1u);
        QCOMPARE(p.field("a.x")->values, 3u);
        QCOMPARE(p.field("a")->presentDocuments, 2u);
        QCOMPARE(p.field("a")->arrays, 2u);
        QCOMPARE(p.documents, 3u);
    }

    void bytesAreExactElementSizes()
    {
        // {"s": "abc"}: element = type(1) + "s\0"(2) + int32 length(4) + "abc\0"(4) = 11 bytes.
        const QByteArray doc =
            fixtures::bson(R"({"s": "abc", "n": {"$numberInt": "7"}, "arr": [1, 2]})");
        const auto p = profileOf({doc});
        QCOMPARE(p.field("s")->bytes, 11u);
        QCOMPARE(p.field("n")->bytes, 1u + 2u + 4u);
        // arr: type(1) + "arr\0"(4) + array document (4 + 2 * (1 + 2 + 4) + 1 = 19)
        QCOMPARE(p.field("arr")->bytes, 1u + 4u + 19u);
        QCOMPARE(p.field("arr")->elementBytes, 14u);
        QCOMPARE(p.field("arr")->elementCount, 2u);
        QCOMPARE(p.sizes.sum(), std::uint64_t(doc.size()));
        QCOMPARE(p.sizes.max(), std::uint64_t(doc.size()));
    }

    void idsOfAnyTypeRenderAsRelaxedJson_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("string") << R"({"_id": "user-42"})"
                                << R"("user-42")";
        QTest::newRow("int") << R"({"_id": 42})" << QStringLiteral("42");
        QTest::newRow("long") << R"({"_id": {"$numberLong": "9007199254740993"}})"
                              << QStringLiteral("9007199254740993");
        QTest::newRow("oid") << R"({"_id": {"$oid": "65a1b2c3d4e5f60718293a4b"}})"
                             << R"({"$oid":"65a1b2c3d4e5f60718293a4b"})";
        QTest::newRow("document") << R"({"_id": {"user": "a b", "n": 1}})"
                                  << R"({"user":"a b","n":1})";
        // (moc misreads \" inside raw strings, so these two are ordinary literals)
        QTest::newRow("quote") << QStringLiteral("{\"_id\": \"say \\\"hi\\\"\"}")
                               << QStringLiteral("\"say \\\"hi\\\"\"");
        QTest::newRow("none") << R"({"x": 1})" << QString();
    }
    void idsOfAnyTypeRenderAsRelaxedJson()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const auto p = profileOf({fixtures::bson(json.toUtf8().constData())});
        const auto docs = p.largestDocuments.sorted();
        QCOMPARE(docs.size(), std::size_t(1));
        QCOMPARE(DocumentId::toRelaxedJson(docs.front().rawId), expected);
    }

    void invalidNestedBsonIsReportedWithOffsetAndPath()
    {
        QByteArray doc = fixtures::bson(R"({"_id": 1, "sub": {"a": "xyz"}})");
        // Corrupt the embedded document's length prefix (it starts after _id and "sub" key).
        const int subAt = doc.indexOf("sub") + 4;
        doc[subAt] = char(0x7f);
        ProfileBuilder builder;
        SourceError fault;
        QVERIFY(!builder.addDocument(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                     std::uint32_t(doc.size()), 0, &fault));
        QCOMPARE(fault.kind, SourceError::Kind::InvalidData);
        QVERIFY2(fault.byteOffset > 0 && fault.byteOffset <= doc.size(),
                 qPrintable(QString::number(fault.byteOffset)));
        QVERIFY(!fault.message.isEmpty());
        QCOMPARE(builder.documents(), 0u);
    }

    void invalidStringLengthInsideArrayIsCaught()
    {
        QByteArray doc = fixtures::bson(R"({"_id": 1, "list": [{"s": "hello"}]})");
        const int s = doc.indexOf("hello") - 4; // the string's int32 length
        doc[s] = char(0x40);
        ProfileBuilder builder;
        SourceError fault;
        QVERIFY(!builder.addDocument(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                     std::uint32_t(doc.size()), 0, &fault));
        QCOMPARE(fault.fieldPath, QStringLiteral("list"));
    }

    void nestingDepthIsLimited()
    {
        QByteArray json = "{\"a\": 1}";
        for (int i = 0; i < 20; ++i)
            json = "{\"d\": " + json + "}";
        ProfileBuilder::Limits limits;
        limits.maxDepth = 10;
        ProfileBuilder builder(limits);
        const QByteArray doc = fixtures::bson(json.constData());
        SourceError fault;
        QVERIFY(!builder.addDocument(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                     std::uint32_t(doc.size()), 0, &fault));
        QVERIFY(fault.message.contains(QStringLiteral("nesting deeper than 10")));
    }

    void mapLikeDocumentsCollapseToBoundedPaths()
    {
        QByteArray json = "{\"scores\": {";
        for (int i = 0; i < 50; ++i)
            json += (i ? "," : "") + QByteArray("\"u") + QByteArray::number(i) +
                    "\": " + QByteArray::number(i);
        json += "}}";
        ProfileBuilder::Limits limits;
        limits.maxChildrenPerField = 10;
        const auto p = profileOf({fixtures::bson(json.constData())}, limits);
        QCOMPARE(p.field("scores.*")->values, 40u);
        QCOMPARE(p.fields.size(), std::size_t(1 + 10 + 1));
    }

    void mergedBuildersEqualOneBuilder()
    {
        QList<QByteArray> docs;
        for (int i = 0; i < 200; ++i)
            docs << fixtures::documentWithArray(i, (i * 37) % 101, i % 3 ? "items" : "other");
        const auto whole = profileOf(docs);
        ProfileBuilder a, b;
        for (int i = 0; i < docs.size(); ++i) {
            ProfileBuilder &target = i % 2 ? a : b;
            QVERIFY(target.addDocument(reinterpret_cast<const std::uint8_t *>(docs[i].constData()),
                                       std::uint32_t(docs[i].size()), std::uint64_t(i), nullptr));
        }
        a.merge(std::move(b));
        const auto merged = a.takeProfile();
        QCOMPARE(paths(merged), paths(whole));
        QCOMPARE(merged.documents, whole.documents);
        QCOMPARE(merged.sizes.sum(), whole.sizes.sum());
        for (const auto &f : whole.fields) {
            const FieldProfile *m = merged.field(f.path);
            QVERIFY(m);
            QCOMPARE(m->presentDocuments, f.presentDocuments);
            QCOMPARE(m->bytes, f.bytes);
            QCOMPARE(m->lengths.quantile(0.9), f.lengths.quantile(0.9));
            const auto mt = m->longestPerDocument.sorted();
            const auto wt = f.longestPerDocument.sorted();
            QCOMPARE(mt.size(), wt.size());
            for (std::size_t i = 0; i < mt.size(); ++i) {
                QCOMPARE(mt[i].docIndex, wt[i].docIndex);
                QCOMPARE(mt[i].value, wt[i].value);
            }
        }
    }

    void builderStartsAfreshAfterTakeProfile()
    {
        const QByteArray doc = fixtures::documentWithArray(1, 7);
        ProfileBuilder builder;
        for (int round = 0; round < 2; ++round) {
            QVERIFY(builder.addDocument(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                                        std::uint32_t(doc.size()), 0, nullptr));
            const auto p = builder.takeProfile();
            QCOMPARE(p.documents, 1u);
            QCOMPARE(p.sizes.count(), 1u);
            QCOMPARE(p.sizes.sum(), std::uint64_t(doc.size()));
            QCOMPARE(p.largestDocuments.size(), std::size_t(1));
            QCOMPARE(p.longestArrays.size(), std::size_t(1));
            QCOMPARE(p.field("items")->arrays, 1u);
        }
    }

    void longestArrayPerDocumentIsTracked()
    {
        const auto p =
            profileOf({fixtures::bson(R"({"_id": 1, "a": [1, 2, 3], "b": {"c": [1, 2, 3, 4, 5]}})"),
                       fixtures::bson(R"({"_id": 2, "a": [1]})")});
        const auto longest = p.longestArrays.sorted();
        QCOMPARE(longest.size(), std::size_t(2));
        QCOMPARE(longest[0].value, 5u);
        QCOMPARE(longest[0].path, std::string("b.c"));
        QCOMPARE(longest[1].value, 1u);
        QCOMPARE(longest[1].path, std::string("a"));
    }
};

QTEST_GUILESS_MAIN(TestProfileBuilder)
#include "tst_profilebuilder.moc"
