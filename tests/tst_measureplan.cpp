// What the server is asked to summarise (MeasurePlanner, from a discovery read's profile), the
// plan's saved form (MeasurePlan::encode/decode, for resumed scans), and the projection built
// from it: only arrays whose insides a summary can stand for are summarised, and no field name
// that could change a `$` path's meaning ever reaches the server as one.
#include "BsonFixtures.h"

#include "analysis/MeasurePlanner.h"
#include "analysis/ProfileBuilder.h"
#include "explore/MeasureSetup.h"
#include "measure/MeasurePlan.h"
#include "measure/MeasureProjection.h"

#include <QTest>

#include <bson/bson.h>

using namespace oe;

namespace {

MeasurePlan planOf(const QList<const char *> &documents)
{
    ProfileBuilder builder;
    std::uint64_t index = 0;
    for (const char *json : documents) {
        const QByteArray doc = fixtures::bson(json);
        builder.addDocument(reinterpret_cast<const std::uint8_t *>(doc.constData()),
                            std::uint32_t(doc.size()), index++, nullptr);
    }
    return MeasurePlanner::plan(builder.takeProfile());
}

QStringList pathsOf(const MeasurePlan &plan)
{
    QStringList paths;
    for (const MeasurePlan::Summary &s : plan.summaries)
        paths << QString::fromStdString(s.path());
    return paths;
}

// The projection as canonical extended JSON.
QString projectionJson(const MeasurePlan &plan)
{
    const QByteArray bytes = MeasureProjection::build(plan);
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                          std::size_t(bytes.size())))
        return {};
    char *json = bson_as_canonical_extended_json(&doc, nullptr);
    const QString text = QString::fromUtf8(json);
    bson_free(json);
    return text;
}

} // namespace

class TestMeasurePlan : public QObject
{
    Q_OBJECT

private slots:
    void arraysAndTheirArrayHoldingFields()
    {
        const MeasurePlan plan = planOf({
            R"({"_id": 1, "feed": [{"type": "a", "tags": ["x", "y"]}, {"type": "b"}],
                "meta": {"labels": ["p", "q", "r"], "by": "me"}, "name": "n"})",
            R"({"_id": 2, "feed": "sometimes a string", "meta": {"labels": []}})",
        });
        QCOMPARE(pathsOf(plan),
                 (QStringList{QStringLiteral("feed"), QStringLiteral("meta.labels")}));
        const MeasurePlan::Summary &feed = plan.summaries[0];
        QCOMPARE(feed.children.size(), std::size_t(1)); // type holds no array: not measured
        QCOMPARE(feed.children[0].name, std::string("tags"));
        QVERIFY(feed.children[0].holdsArrays);
        QVERIFY(feed.elementBytesLimit > 256);
        QVERIFY(plan.summaries[1].children.empty());
    }

    // What a summary cannot stand for makes the path travel whole instead.
    void pathsThatTravelWhole_data()
    {
        QTest::addColumn<QString>("json");
        QTest::newRow("an array directly inside the array") << R"({"_id": 1, "a": [[1, 2], [3]]})";
        QTest::newRow("arrays two levels inside") << R"({"_id": 1, "a": [{"b": {"c": [1]}}]})";
        QTest::newRow("an array inside an array's elements' arrays")
            << R"({"_id": 1, "a": [{"b": [{"c": [1]}]}]})";
        QTest::newRow("a key with a dot") << R"({"_id": 1, "a.b": [1, 2]})";
        QTest::newRow("a key with a leading $") << R"({"_id": 1, "$a": [1, 2]})";
        QTest::newRow("an element field with a dot") << R"({"_id": 1, "a": [{"x.y": [1]}]})";
        QTest::newRow("an element field with a leading $") << R"({"_id": 1, "a": [{"$x": [1]}]})";
        QTest::newRow("under a sub-document with a dotted key")
            << R"({"_id": 1, "m.n": {"a": [1, 2]}})";
        QTest::newRow("an empty key") << R"({"_id": 1, "": [1, 2]})";
    }
    void pathsThatTravelWhole()
    {
        QFETCH(QString, json);
        const QByteArray utf8 = json.toUtf8();
        const MeasurePlan plan = planOf({utf8.constData()});
        QVERIFY2(plan.isEmpty(), qPrintable(pathsOf(plan).join(QLatin1Char(','))));
        // Nothing to summarise: the projection still measures ($bsonSize) and sends the rest.
        QVERIFY(projectionJson(plan).contains(QLatin1String("$bsonSize")));
    }

    // A sub-document that is sometimes an array: its array field is inside an array there, so
    // only the outer array is summarised (with the field as a child).
    void parentSometimesAnArray()
    {
        const MeasurePlan plan =
            planOf({R"({"_id": 1, "m": {"a": [1, 2]}})", R"({"_id": 2, "m": [{"a": [3]}, 4]})"});
        QCOMPARE(pathsOf(plan), QStringList{QStringLiteral("m")});
        QCOMPARE(plan.summaries[0].children.at(0).name, std::string("a"));
    }

    // auto reads documents here only from a server on this machine (and near in time).
    void thisMachine()
    {
        for (const char *hosts : {"127.0.0.1:27017", "localhost:27017", "[::1]:27017",
                                  "127.0.0.1:1,127.0.0.2:2", "/tmp/mongodb-27017.sock"})
            QVERIFY2(MeasureSetup::onThisMachine(QString::fromLatin1(hosts)), hosts);
        for (const char *hosts :
             {"", "10.0.0.5:27017", "localhost.example.com:27017", "127.0.0.1:1,db.example.com:2",
              "[2001:db8::1]:27017", "cluster0.abcde.mongodb.net:27017"})
            QVERIFY2(!MeasureSetup::onThisMachine(QString::fromLatin1(hosts)), hosts);
    }

    void plainNames()
    {
        for (const char *name : {"a", "a$b", "comments", "ünïcode", "with space", "_id"})
            QVERIFY2(MeasurePlan::plainName(name), name);
        for (const std::string &name : {std::string(""), std::string("$a"), std::string("a.b"),
                                        std::string("$$ROOT"), std::string("a\0b", 3)})
            QVERIFY2(!MeasurePlan::plainName(name), name.c_str());
    }

    void savedPlanReadsBack()
    {
        const MeasurePlan plan = planOf({R"({"_id": 1, "feed": [{"tags": ["x"]}],
                                             "meta": {"labels": ["p"]}})"});
        QCOMPARE(plan.summaries.size(), std::size_t(2));
        const auto back = MeasurePlan::decode(plan.encode());
        QVERIFY(back);
        QVERIFY(*back == plan);
        QVERIFY(MeasurePlan::decode(MeasurePlan().encode())->isEmpty());
        // Cut short, padded or damaged, it is refused, never read as another plan.
        const QByteArray good = plan.encode();
        QVERIFY(!MeasurePlan::decode(good.left(good.size() - 1)));
        QVERIFY(!MeasurePlan::decode(good + QByteArray(1, '\0')));
        QVERIFY(!MeasurePlan::decode(QByteArray("OEMP")));
        QVERIFY(!MeasurePlan::decode(QByteArray()));
    }

    // Each summarised path appears in the projection as a `$` path and an object key, its
    // children as `$$a.<name>`; the summaries are computed once ($let) and the document comes
    // whole when one of them falls short.
    void projectionNamesOnlyPlainPaths()
    {
        const MeasurePlan plan = planOf({R"({"_id": 1, "feed": [{"tags": ["x"], "t": 1}],
                                             "meta": {"labels": ["p"]}, "a.b": [1]})"});
        const QString json = projectionJson(plan);
        QVERIFY(!json.isEmpty());
        for (const char *part : {"\"$feed\"", "\"$meta.labels\"", "\"$$a.tags\"", "\"$let\"",
                                 "\"$$ROOT\"", "\"w\"", "\"k\"", "\"s\""})
            QVERIFY2(json.contains(QLatin1String(part)), part);
        QVERIFY(!json.contains(QLatin1String("a.b")));
        QVERIFY(!json.contains(QLatin1String("$$a.t\"")));
    }
};

QTEST_GUILESS_MAIN(TestMeasurePlan)
#include "tst_measureplan.moc"
