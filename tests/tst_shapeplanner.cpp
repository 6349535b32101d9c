// Unit tests for ShapePlanner and ShapePlan (issue 54): which discovered shapes the tallies can
// count in the cluster, and the schema that tells the regular documents from the rest.

#include "BsonFixtures.h"

#include "analysis/MeasurePlanner.h"
#include "analysis/ProfileBuilder.h"
#include "analysis/ShapePlanner.h"
#include "bson/BsonTypes.h"
#include "bson/internal/BsonDocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <bson/bson.h>

using namespace oe;

namespace {

QString S(const char *text)
{
    return QString::fromUtf8(text);
}

CollectionProfile discovered(const QList<QByteArray> &documents)
{
    ProfileBuilder builder;
    std::uint64_t i = 0;
    for (const QByteArray &d : documents)
        builder.addDocument(reinterpret_cast<const std::uint8_t *>(d.constData()),
                            std::uint32_t(d.size()), i++, nullptr);
    return builder.takeProfile();
}

std::optional<ShapePlan> planOf(const QList<QByteArray> &documents, QString *why)
{
    const CollectionProfile profile = discovered(documents);
    return ShapePlanner::plan(profile, MeasurePlanner::plan(profile), 1000,
                              VersionTally::knownNames(), why);
}

// regular()'s schema as relaxed extended JSON.
QJsonObject schemaOf(const ShapePlan &plan)
{
    const auto doc = BsonDocument::fromBytes(plan.regular());
    if (!doc)
        return {};
    char *json = bson_as_relaxed_extended_json(doc->get(), nullptr);
    const QJsonObject out = QJsonDocument::fromJson(json).object();
    bson_free(json);
    return out;
}

// The schema of the document's field `name` in regular()'s $jsonSchema.
QJsonObject fieldSchema(const ShapePlan &plan, const QString &name)
{
    return schemaOf(plan)
        .value(S("$and"))
        .toArray()[0]
        .toObject()
        .value(S("$jsonSchema"))
        .toObject()
        .value(S("properties"))
        .toObject()
        .value(name)
        .toObject();
}

} // namespace

class TestShapePlanner : public QObject
{
    Q_OBJECT

private slots:
    // Flat documents: every path outside arrays with its types, parents before children; the
    // schema closes every object, names each path's types, the arrays' element type, keeps an
    // object or array _id out and bounds the size.
    void flatDocumentsArePlanned()
    {
        QString why;
        const auto plan =
            planOf({fixtures::bson(R"({"_id": 1, "n": "a", "p": {"c": "PT", "v": true},
                                                    "codes": [1, 2]})"),
                    fixtures::bson(R"({"_id": 2, "n": 5, "codes": []})")},
                   &why);
        QVERIFY2(plan, qPrintable(why));
        QCOMPARE(int(plan->paths.size()), 5);
        QStringList paths;
        for (const ShapePlan::Path &p : plan->paths)
            paths << p.expression();
        QCOMPARE(paths, (QStringList{S("$codes"), S("$n"), S("$p"), S("$p.c"), S("$p.v")}));
        QCOMPARE(plan->paths[1].types, BsonTypes::bit(0x02) | BsonTypes::bit(0x10));
        QCOMPARE(plan->paths[0].elementType, BsonTypes::bit(0x10));
        QCOMPARE(plan->paths[3].parent, 2);
        QCOMPARE(plan->variablePaths(), (std::vector<int>{1, 3}));
        QCOMPARE(plan->objectPaths(), (std::vector<int>{2}));
        const QJsonObject schema = schemaOf(*plan);
        const QJsonArray all = schema.value(S("$and")).toArray();
        QCOMPARE(all.size(), 1); // (no binary: strings are held short by the schema)
        const QJsonObject root = all[0].toObject().value(S("$jsonSchema")).toObject();
        QCOMPARE(root.value(S("additionalProperties")).toBool(true), false);
        const QJsonObject props = root.value(S("properties")).toObject();
        QCOMPARE(props.value(S("_id")).toObject().value(S("not")).toObject().value(S("bsonType")),
                 QJsonValue(QJsonArray{S("object"), S("array")}));
        QCOMPARE(
            props.value(S("codes")).toObject().value(S("items")).toObject().value(S("bsonType")),
            QJsonValue(QJsonArray{S("int")}));
        // The types the tallies' $type tuple sees are left to it (a row of another type is
        // read whole); a path holding arrays keeps its own.
        QCOMPARE(props.value(S("codes")).toObject().value(S("bsonType")),
                 QJsonValue(QJsonArray{S("array")}));
        QVERIFY(!props.value(S("n")).toObject().contains(S("bsonType")));
        QVERIFY(!props.value(S("p")).toObject().contains(S("bsonType")));
        const QJsonObject p = props.value(S("p")).toObject();
        QVERIFY(
            !p.value(S("properties")).toObject().value(S("v")).toObject().contains(S("bsonType")));
        QCOMPARE(p.value(S("additionalProperties")).toBool(true), false);
        QCOMPARE(p.value(S("properties")).toObject().keys(), (QStringList{S("c"), S("v")}));
        // A string longer than a quarter of the big-scalar limit (1000 bytes here) may be one.
        QCOMPARE(props.value(S("n")).toObject().value(S("maxLength")).toInt(), (1000 - 27) / 4);
        // A binary may be one whatever the schema says: the document's size bounds it.
        const auto binary =
            planOf({fixtures::bson(
                       R"({"_id": 1, "b": {"$binary": {"base64": "AA==", "subType": "00"}}})")},
                   &why);
        QVERIFY2(binary, qPrintable(why));
        const QJsonArray bounded = schemaOf(*binary).value(S("$and")).toArray();
        QCOMPARE(bounded.size(), 2);
        QVERIFY(bounded[1].toObject().contains(S("$expr")));
    }

    // What a tally cannot stand for is refused, named in one line.
    void refusals_data()
    {
        QTest::addColumn<QByteArray>("document");
        QTest::addColumn<QString>("reason");
        QTest::newRow("mixed arrays in arrays' elements")
            << fixtures::bson(R"({"_id": 1, "c": [{"a": [1, "x"]}]})")
            << S("c.a: in arrays' elements, arrays of more than one scalar type");
        QTest::newRow("arrays beside values in arrays' elements")
            << fixtures::bson(R"({"_id": 1, "c": [{"a": [1]}, {"a": 2}]})")
            << S("c.a: in arrays' elements, arrays of more than one scalar type or beside");
        QTest::newRow("objects in arrays' elements")
            << fixtures::bson(R"({"_id": 1, "c": [{"o": {"x": 1}}]})")
            << S("c.o: objects or values of a type a tally cannot size");
        QString many = S(R"({"_id": 1, "r": [{)");
        for (int k = 0; k < 30; ++k)
            many += QStringLiteral(R"(%1"2026-01-%2": 1)").arg(k ? S(", ") : QString()).arg(k + 1);
        many += S("}]}");
        QTest::newRow("keys as data in arrays' objects")
            << fixtures::bson(many.toUtf8().constData())
            << S("r: objects of 30 keys in arrays, maybe keys used as data");
        QTest::newRow("objects and scalars") << fixtures::bson(R"({"_id": 1, "c": [{"a": 1}, 2]})")
                                             << S("c: arrays of objects and other values");
        QTest::newRow("regex elements")
            << fixtures::bson(R"({"_id": 1, "t": [1, {"$regex": "x", "$options": ""}]})")
            << S("t: arrays of elements a tally cannot size (regex)");
        QTest::newRow("schema version of decimals")
            << fixtures::bson(R"({"_id": 1, "schema_version": {"$numberDecimal": "2.0"}})")
            << S("schema_version: a schema version of decimals");
        QTest::newRow("schema version too long")
            << fixtures::bson(R"({"_id": 1, "version": "a description longer than 32 bytes"})")
            << S("version: a schema version field without a version value");
        QTest::newRow("regex") << fixtures::bson(
                                      R"({"_id": 1, "r": {"$regex": "x", "$options": ""}})")
                               << S("r: values of a type a tally cannot size (regex)");
        QTest::newRow("object _id")
            << fixtures::bson(R"({"_id": {"a": 1}, "x": 1})") << S("an _id that is an object");
    }
    void refusals()
    {
        QFETCH(QByteArray, document);
        QFETCH(QString, reason);
        QString why;
        QVERIFY(!planOf({document}, &why));
        QVERIFY2(why.startsWith(reason), qPrintable(why));
    }

    // Arrays of objects: their elements' fields are paths of the plan (inElements, the array
    // their parent), the schema closes the elements' objects and names each field's types.
    void arraysOfObjectsArePlanned()
    {
        QString why;
        const auto plan = planOf(
            {fixtures::bson(R"({"_id": 1, "c": [{"a": 1, "t": "x"}, {"a": "y"}], "n": 2})")}, &why);
        QVERIFY2(plan, qPrintable(why));
        QStringList paths;
        for (const ShapePlan::Path &p : plan->paths)
            paths << p.expression();
        QCOMPARE(paths, (QStringList{S("$c"), S("$c.a"), S("$c.t"), S("$n")}));
        QCOMPARE(plan->objectArrays(), (std::vector<int>{0}));
        QCOMPARE(plan->elementFields(), (std::vector<int>{1, 2}));
        QCOMPARE(plan->paths[1].parent, 0);
        QCOMPARE(plan->paths[1].types, BsonTypes::bit(0x02) | BsonTypes::bit(0x10));
        QCOMPARE(plan->variablePaths(), (std::vector<int>{1, 2}));
        const QJsonObject items = fieldSchema(*plan, S("c")).value(S("items")).toObject();
        QCOMPARE(items.value(S("bsonType")), QJsonValue(QJsonArray{S("object")}));
        QCOMPARE(items.value(S("additionalProperties")).toBool(true), false);
        QCOMPARE(items.value(S("properties")).toObject().keys(), (QStringList{S("a"), S("t")}));
        // The elements' fields keep their types (their figures gather them as of one type), and
        // so does an object with arrays below it (its figures size them).
        QVERIFY(items.value(S("properties"))
                    .toObject()
                    .value(S("t"))
                    .toObject()
                    .contains(S("bsonType")));
        const auto below =
            planOf({fixtures::bson(R"({"_id": 1, "p": {"tags": [1], "n": 1}})")}, &why);
        QVERIFY2(below, qPrintable(why));
        const QJsonObject p = fieldSchema(*below, S("p"));
        QCOMPARE(p.value(S("bsonType")), QJsonValue(QJsonArray{S("object")}));
        QVERIFY(
            !p.value(S("properties")).toObject().value(S("n")).toObject().contains(S("bsonType")));
        // Arrays in the elements: their lengths the records', their element type the schema's.
        const auto tags =
            planOf({fixtures::bson(R"({"_id": 1, "c": [{"g": ["x", "y"]}, {"k": 1}]})")}, &why);
        QVERIFY2(tags, qPrintable(why));
        QCOMPARE(tags->nestedArrays(0), (std::vector<int>{1}));
        QCOMPARE(tags->paths[1].elementType, BsonTypes::bit(0x02));
        QCOMPARE(tags->paths[1].summary, 0);
        QCOMPARE(tags->variablePaths(), (std::vector<int>{1}));
    }

    // Arrays of two scalar element types: the schema names both, the tallies count each.
    void mixedElementsArePlanned()
    {
        QString why;
        const auto plan = planOf({fixtures::bson(R"({"_id": 1, "t": [1, "x"], "u": [2]})")}, &why);
        QVERIFY2(plan, qPrintable(why));
        QCOMPARE(plan->paths.size(), std::size_t(2));
        QCOMPARE(plan->paths[0].elementType, BsonTypes::bit(0x02) | BsonTypes::bit(0x10));
        QVERIFY(plan->paths[0].mixedElements());
        QVERIFY(!plan->paths[1].mixedElements());
        QCOMPARE(plan->mixedPaths(), (std::vector<int>{0}));
        const QJsonObject t = fieldSchema(*plan, S("t"));
        QCOMPARE(t.value(S("items")).toObject().value(S("bsonType")),
                 QJsonValue(QJsonArray{S("string"), S("int")}));
    }

    // A field where a version is looked for: the values the discovery saw, the tallies' own
    // (not summed as bytes); a regular document holds one of them (the server compares numbers
    // by value, as the versions do) or a value no version has.
    void versionFieldsArePlanned()
    {
        QString why;
        const auto plan = planOf({fixtures::bson(R"({"_id": 1, "schema_version": 1, "n": "a"})"),
                                  fixtures::bson(R"({"_id": 2, "schema_version": "v2"})"),
                                  fixtures::bson(R"({"_id": 3, "schema_version": {"x": 1}})"),
                                  fixtures::bson(R"({"_id": 4, "schema_version": 1.5})")},
                                 &why);
        QVERIFY2(plan, qPrintable(why));
        QStringList paths;
        for (const ShapePlan::Path &p : plan->paths)
            paths << p.expression();
        QCOMPARE(paths, (QStringList{S("$n"), S("$schema_version"), S("$schema_version.x")}));
        QVERIFY(plan->paths[1].version);
        QCOMPARE(plan->paths[1].versions.size(), std::size_t(3));
        QCOMPARE(plan->versionPaths(), (std::vector<int>{1}));
        QCOMPARE(plan->variablePaths(), (std::vector<int>{0}));
        const QJsonObject version = fieldSchema(*plan, S("schema_version"));
        const QJsonArray anyOf = version.value(S("anyOf")).toArray();
        QCOMPARE(anyOf.size(), 2);
        QJsonArray values = anyOf[0].toObject().value(S("enum")).toArray();
        QCOMPARE(values.size(), 3);
        QVERIFY2(values.contains(QJsonValue(1)) && values.contains(QJsonValue(1.5)) &&
                     values.contains(QJsonValue(S("v2"))),
                 QJsonDocument(values).toJson().constData());
        QCOMPARE(anyOf[1].toObject().value(S("bsonType")), QJsonValue(QJsonArray{S("object")}));
    }

    // More values than a version field has (a counter): the walk drops them, the tallies could
    // not say so; refused.
    void countersAreRefused()
    {
        QList<QByteArray> docs;
        for (int i = 0; i <= int(VersionTally::kMaxValues); ++i)
            docs << fixtures::bson(
                QStringLiteral(R"({"_id": %1, "version": %1})").arg(i).toUtf8().constData());
        QString why;
        QVERIFY(!planOf(docs, &why));
        QVERIFY2(why.startsWith(S("version: a field of more than 12 values")), qPrintable(why));
    }

    // Past kMaxPaths the rarest paths are left out (their documents are then read whole),
    // never a common one, and never a parent before its children.
    void rarestPathsAreLeftOut()
    {
        QList<QByteArray> docs;
        for (int i = 0; i < 10; ++i)
            docs << fixtures::bson(QStringLiteral(R"({"_id": %1, "a": 1, "o": {"x": 1, "y": 2}})")
                                       .arg(i)
                                       .toUtf8()
                                       .constData());
        QString many = QStringLiteral(R"({"_id": 99, "a": 1, "w": {)");
        for (int k = 0; k < 300; ++k)
            many += QStringLiteral(R"(%1"f%2": %2)").arg(k ? S(", ") : QString()).arg(k);
        many += S("}}");
        docs << fixtures::bson(many.toUtf8().constData());
        QString why;
        const auto plan = planOf(docs, &why);
        QVERIFY2(plan, qPrintable(why));
        QCOMPARE(plan->paths.size(), ShapePlanner::kMaxPaths);
        QStringList paths;
        for (const ShapePlan::Path &p : plan->paths)
            paths << p.expression();
        for (const char *common : {"$a", "$o", "$o.x", "$o.y"})
            QVERIFY2(paths.contains(S(common)), common);
        for (std::size_t i = 0; i < plan->paths.size(); ++i)
            QVERIFY(plan->paths[i].parent < int(i));
    }
};

QTEST_MAIN(TestShapePlanner)
#include "tst_shapeplanner.moc"
