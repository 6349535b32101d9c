// What the server is asked to measure (MeasurePlanner, from a discovery read's profile), the
// plan's saved form (MeasurePlan::encode/decode, for resumed scans), the projection built from
// it, and the replies read back (MeasureReply): only arrays whose insides a record can stand
// for are planned (any other array path is named, and the plan is not used), no field name that
// could change a `$` path's meaning ever reaches the server as one, and a reply whose figures
// the plan does not explain is told apart (it is read whole).
#include "BsonFixtures.h"

#include "analysis/MeasurePlanner.h"
#include "analysis/ProfileBuilder.h"
#include "bson/BsonTypes.h"
#include "explore/MeasureSetup.h"
#include "measure/MeasurePlan.h"
#include "measure/MeasureProjection.h"
#include "measure/MeasureReply.h"

#include <QDataStream>
#include <QIODevice>

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
        QCOMPARE(feed.elementTypes, BsonTypes::kDocumentBit);
        QVERIFY(plan.summaries[1].children.empty());
        QVERIFY(plan.unmeasurable.empty());
        QVERIFY(plan.restBytesLimit > 256);
    }

    // What a record cannot stand for is named, and the plan is not used (client-side instead).
    void pathsThatTravelWhole_data()
    {
        QTest::addColumn<QString>("json");
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
        QVERIFY(!plan.unmeasurable.empty());
        // Nothing to summarise: the projection still measures ($bsonSize).
        QVERIFY(projectionJson(plan).contains(QLatin1String("$bsonSize")));
    }

    // A sub-document that is sometimes an array: its array field is inside an array there, so
    // the outer array is planned (with the field as a child); a document where it is an object
    // is read whole (MeasureReply::explained), as is one whose array holds arrays.
    void parentSometimesAnArray()
    {
        const MeasurePlan plan =
            planOf({R"({"_id": 1, "m": {"a": [1, 2]}})", R"({"_id": 2, "m": [{"a": [3]}, 4]})",
                    R"({"_id": 3, "n": [[1, 2], [3], 4]})"});
        QCOMPARE(pathsOf(plan), (QStringList{QStringLiteral("m"), QStringLiteral("n")}));
        QCOMPARE(plan.summaries[0].children.at(0).name, std::string("a"));
        QVERIFY(plan.summaries[1].children.empty());
        QVERIFY(plan.summaries[1].elementTypes & BsonTypes::kArrayBit);
        QVERIFY(plan.unmeasurable.empty());
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
        QVERIFY(!MeasurePlan::isOlderFormat(good));
        // A plan an older build saved (version 1: no element types, no rest limit) is told
        // apart: the scan it began resumes client-side.
        QByteArray v1;
        QDataStream out(&v1, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_0);
        out << quint32(0x4f454d50) << quint32(1) << quint32(1) << quint32(1) << QByteArray("feed")
            << quint32(0) << quint64(300);
        QVERIFY(MeasurePlan::isOlderFormat(v1));
        QVERIFY(!MeasurePlan::decode(v1));
        // A version 2 plan, as the build before ArrayBytes saved this very plan: read back
        // whole, asking for array bytes with the wrapper, as the scan it began did.
        const QByteArray v2 = QByteArray::fromHex(
            "4f454d5000000002000000020000000100000004666565640000000100000004746167730100000000"
            "000001700000000800000002000000046d657461000000066c6162656c7300000000000000000000"
            "01240000000400000000000001ac");
        const auto older = MeasurePlan::decode(v2);
        QVERIFY(older);
        QVERIFY(!MeasurePlan::isOlderFormat(v2));
        QCOMPARE(older->arrayBytes, MeasurePlan::ArrayBytes::Wrapped);
        QVERIFY(*older == plan);
        // Saved now, the way of asking reads back; an unknown way is refused.
        MeasurePlan removed = plan;
        removed.arrayBytes = MeasurePlan::ArrayBytes::Removed;
        QCOMPARE(MeasurePlan::decode(removed.encode())->arrayBytes,
                 MeasurePlan::ArrayBytes::Removed);
        QByteArray unknown = removed.encode();
        unknown[unknown.size() - 2] = char(7);
        QVERIFY(!MeasurePlan::decode(unknown));
        // A version 3 plan, as the build before ElementCheck saved it (version 2's bytes and
        // the way of asking for array bytes): its elements are checked by expression, as the
        // scan it began did.
        const QByteArray v3 = QByteArray::fromHex(
            "4f454d5000000003000000020000000100000004666565640000000100000004746167730100000000"
            "000001700000000800000002000000046d657461000000066c6162656c7300000000000000000000"
            "01240000000400000000000001ac01");
        const auto third = MeasurePlan::decode(v3);
        QVERIFY(third);
        QCOMPARE(third->elementCheck, MeasurePlan::ElementCheck::Expression);
        QCOMPARE(third->arrayBytes, MeasurePlan::ArrayBytes::Removed);
        QVERIFY(*third == removed);
        // Saved now, the element check reads back; an unknown one is refused.
        MeasurePlan projected = plan;
        projected.elementCheck = MeasurePlan::ElementCheck::Projected;
        QCOMPARE(MeasurePlan::decode(projected.encode())->elementCheck,
                 MeasurePlan::ElementCheck::Projected);
        QByteArray unknownCheck = projected.encode();
        unknownCheck[unknownCheck.size() - 1] = char(2);
        QVERIFY(!MeasurePlan::decode(unknownCheck));
    }

    // Where the find's projection checks elements, a top-level array with one learnt element
    // type is asked for with {path: {$elemMatch: {$not: {$type}}}} and its record has no element
    // check; a nested path, several types, or a name the measured document uses itself keep the
    // expression. The field in a reply marks elements of another type; a field the plan did not
    // ask for is refused.
    void projectionChecksTopLevelElements()
    {
        MeasurePlan plan;
        plan.elementCheck = MeasurePlan::ElementCheck::Projected;
        plan.summaries.push_back({{"feed"}, {{"tags", true}}, 100, BsonTypes::kDocumentBit});
        plan.summaries.push_back({{"meta", "labels"}, {}, 100, BsonTypes::bit(BSON_TYPE_UTF8)});
        plan.summaries.push_back(
            {{"mixed"}, {}, 100, BsonTypes::bit(BSON_TYPE_UTF8) | BsonTypes::bit(BSON_TYPE_INT32)});
        plan.summaries.push_back({{"s"}, {}, 100, BsonTypes::bit(BSON_TYPE_INT32)});
        plan.restBytesLimit = 1000;
        QVERIFY(plan.projectsElementCheck(plan.summaries[0]));
        for (std::size_t i = 1; i < 4; ++i)
            QVERIFY(!plan.projectsElementCheck(plan.summaries[i]));
        const QString json = projectionJson(plan);
        QVERIFY2(json.contains(QLatin1String(
                     R"("feed" : { "$elemMatch" : { "$not" : { "$type" : "object" } } })")),
                 qPrintable(json));
        QCOMPARE(json.count(QLatin1String("$elemMatch")), 1);
        // feed's tags, and labels' and s's element checks (mixed lists its types).
        QCOMPARE(json.count(QLatin1String("$filter")), 3);
        QCOMPARE(json.count(QLatin1String("$setUnion")), 1);
        MeasurePlan byExpression = plan;
        byExpression.elementCheck = MeasurePlan::ElementCheck::Expression;
        QVERIFY(!projectionJson(byExpression).contains(QLatin1String("$elemMatch")));

        auto parse = [&](const char *reply, QString *problem) {
            const QByteArray bytes = fixtures::bson(reply);
            return MeasureReply::parse(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                       std::uint32_t(bytes.size()), plan, problem);
        };
        QString problem;
        const char *asLearnt =
            R"({"_id": 1, "s": 400, "a": [[3, 208, [2, 0]], [2, 40, 0], null, null]})";
        const auto learnt = parse(asLearnt, &problem);
        QVERIFY2(learnt, qPrintable(problem));
        QVERIFY(learnt->explained(plan));
        QCOMPARE(learnt->records[0].types, BsonTypes::kDocumentBit);
        QCOMPARE(learnt->records[0].childLengths,
                 (std::vector<std::vector<std::uint64_t>>{{2, 0}}));
        const auto other = parse(
            R"({"_id": 1, "feed": [7], "s": 400, "a": [[3, 208, [2]], [2, 40, 0], null, null]})",
            &problem);
        QVERIFY2(other, qPrintable(problem));
        QVERIFY(!other->records[0].typesKnown);
        QVERIFY(!other->explained(plan));
        problem.clear();
        QVERIFY(
            !parse(R"({"_id": 1, "zzz": [7], "s": 400, "a": [[3, 208, [2]], null, null, null]})",
                   &problem));
        QVERIFY(problem.contains(QLatin1String("zzz")));
        // Read as an expression plan's reply, the record's shape is wrong: refused, not misread.
        const QByteArray bytes = fixtures::bson(asLearnt);
        QVERIFY(!MeasureReply::parse(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                     std::uint32_t(bytes.size()), byExpression, &problem));
    }

    // Each planned path appears in the projection as a `$` path, its children as
    // `$$a.<name>`; an object on the way is checked for being an array ("!"); the element check
    // counts the elements of another type than the one learnt.
    void projectionNamesOnlyPlainPaths()
    {
        const MeasurePlan plan = planOf({R"({"_id": 1, "feed": [{"tags": ["x"], "t": 1}],
                                             "meta": {"labels": ["p"]}, "a.b": [1]})"});
        QCOMPARE(plan.unmeasurable, std::vector<std::string>{"a.b"});
        const QString json = projectionJson(plan);
        QVERIFY(!json.isEmpty());
        for (const char *part :
             {"\"$feed\"", "\"$meta.labels\"", "\"$meta\"", "\"$$a.tags\"", "\"$let\"",
              "\"$$ROOT\"", "\"a\"", "\"s\"", "\"!\"", "\"object\"", "\"string\""})
            QVERIFY2(json.contains(QLatin1String(part)), part);
        QVERIFY(!json.contains(QLatin1String("a.b")));
        QVERIFY(!json.contains(QLatin1String("$$a.t\"")));
    }

    // A reply is explained when its records stand for their arrays and the bytes outside them
    // stay within the plan's limit; each way it can fall short is told apart.
    void repliesTheFiguresExplain_data()
    {
        QTest::addColumn<QString>("reply");
        QTest::addColumn<bool>("explained");
        // The plan: feed (elements: objects, children tags), meta.labels (strings); rest 1000.
        QTest::newRow("arrays as learnt")
            << R"({"_id": 1, "s": 400, "a": [[3, 208, 0, [2, 0]], [2, 40, 0]]})" << true;
        QTest::newRow("missing, and not an array")
            << R"({"_id": 1, "s": 60, "a": [null, ["string", 20]]})" << true;
        QTest::newRow("rest over the limit")
            << R"({"_id": 1, "s": 5000, "a": [[3, 208, 0, [2]], null]})" << false;
        QTest::newRow("an element of another type")
            << R"({"_id": 1, "s": 400, "a": [[3, 208, 1, [2]], null]})" << false;
        QTest::newRow("heavier elements than learnt")
            << R"({"_id": 1, "s": 9000, "a": [[2, 8800, 0, []], null]})" << false;
        QTest::newRow("an array on the way") << R"({"_id": 1, "s": 60, "a": [null, "!"]})" << false;
        QTest::newRow("an object where the elements hold arrays")
            << R"({"_id": 1, "s": 60, "a": [["object", 30], null]})" << false;
    }
    void repliesTheFiguresExplain()
    {
        QFETCH(QString, reply);
        QFETCH(bool, explained);
        MeasurePlan plan;
        plan.summaries.push_back({{"feed"}, {{"tags", true}}, 100, BsonTypes::kDocumentBit});
        plan.summaries.push_back({{"meta", "labels"}, {}, 100, BsonTypes::bit(BSON_TYPE_UTF8)});
        plan.restBytesLimit = 1000;
        const QByteArray bytes = fixtures::bson(reply.toUtf8().constData());
        QString problem;
        const auto parsed =
            MeasureReply::parse(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                std::uint32_t(bytes.size()), plan, &problem);
        QVERIFY2(parsed, qPrintable(problem));
        QCOMPARE(parsed->explained(plan), explained);
        QVERIFY(!MeasureReply::isWhole(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                       std::uint32_t(bytes.size())));
    }

    // The rest a discovery document holds (what the plan's limit is learnt from) is its bytes
    // but the _id and the plan's arrays, as explained() counts them; an array behind an array
    // on the way stays in the rest.
    void restOfADocument()
    {
        MeasurePlan plan;
        plan.summaries.push_back({{"feed"}, {}, 100, BsonTypes::kDocumentBit});
        plan.summaries.push_back({{"meta", "labels"}, {}, 100, BsonTypes::bit(BSON_TYPE_UTF8)});
        const QByteArray doc = fixtures::bson(
            R"({"_id": 1, "name": "x", "feed": [{"a": 1}, {"b": 2}], "meta": {"labels": ["p"]}})");
        const QByteArray rest = fixtures::bson(R"({"name": "x", "meta": {}})");
        auto restOf = [&](const QByteArray &d) {
            return MeasureReply::restOf(reinterpret_cast<const std::uint8_t *>(d.constData()),
                                        std::uint32_t(d.size()), plan);
        };
        QCOMPARE(restOf(doc), std::uint64_t(rest.size() - 5));
        const QByteArray behindArray = fixtures::bson(R"({"_id": 1, "meta": [{"labels": ["p"]}]})");
        const QByteArray id = fixtures::bson(R"({"_id": 1})");
        QCOMPARE(restOf(behindArray), std::uint64_t(behindArray.size() - id.size()));
    }

    // A reply that is not one names what is wrong, in one line.
    void malformedRepliesAreRefused()
    {
        MeasurePlan plan;
        plan.summaries.push_back({{"feed"}, {}, 100, BsonTypes::kDocumentBit});
        for (const char *json : {R"({"_id": 1, "a": [null]})", R"({"_id": 1, "s": 40, "a": []})",
                                 R"({"_id": 1, "s": 40, "a": [[1, 2]]})",
                                 R"({"_id": 1, "s": 40, "a": [["nosuchtype", 9]]})"}) {
            const QByteArray bytes = fixtures::bson(json);
            QString problem;
            QVERIFY2(!MeasureReply::parse(reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                          std::uint32_t(bytes.size()), plan, &problem),
                     json);
            QVERIFY(!problem.isEmpty() && !problem.contains(QLatin1Char('\n')));
        }
    }
};

QTEST_GUILESS_MAIN(TestMeasurePlan)
#include "tst_measureplan.moc"
