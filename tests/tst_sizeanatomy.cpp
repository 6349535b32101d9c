// What makes a document big (issue 37, size anatomy): its bytes by top-level field add up to
// the document; the weight is followed down while one child holds half of its parent (a
// string inside an object), and stops at an array whose many elements share it; bad bytes
// are an error naming the offset, never a guess. And the query that finds a shape flag's
// documents: a rare field's and a mixed type's by path, written by libbson so a hostile name
// stays a name; paths no filter can name fall back to the examples' _ids.
#include "BsonFixtures.h"

#include "bson/SizeAnatomy.h"
#include "shape/ShapeQuery.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QtEndian>

using namespace oe;

namespace {

QByteArray document(int payloadBytes, int comments)
{
    QByteArray json = "{\"_id\": 7, \"name\": \"n\", \"payload\": {\"raw\": \"" +
                      QByteArray(payloadBytes, 'x') + "\", \"meta\": {\"k\": 1}}, \"comments\": [";
    for (int i = 0; i < comments; ++i)
        json += (i ? ",{\"by\": \"u" : "{\"by\": \"u") + QByteArray::number(i) + "\"}";
    json += "]}";
    return fixtures::bson(json.constData());
}

std::string idOf(int n) // DocumentId's raw form of an int32 _id
{
    std::string raw(1, char(0x10));
    const qint32 le = qToLittleEndian(qint32(n));
    raw.append(reinterpret_cast<const char *>(&le), 4);
    return raw;
}

} // namespace

class TestSizeAnatomy : public QObject
{
    Q_OBJECT

private slots:
    void theFieldsAddUpAndTheWeightIsFollowedDown()
    {
        const QByteArray doc = document(100000, 50);
        QString error;
        const SizeAnatomy a = SizeAnatomy::of(doc, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(a.documentBytes, qint64(doc.size()));
        qint64 sum = 5; // the length and the terminator
        for (const SizeAnatomy::Part &p : a.fields)
            sum += p.bytes;
        QCOMPARE(sum, a.documentBytes);
        QCOMPARE(a.fields.size(), std::size_t(4));
        QCOMPARE(a.fields[0].key, QStringLiteral("payload"));
        QCOMPARE(a.fields[1].key, QStringLiteral("comments"));
        QCOMPARE(a.fields[1].children, qint64(50));
        QCOMPARE(a.heaviestPath, QStringLiteral("payload.raw"));
        QCOMPARE(a.heaviest.type, QStringLiteral("string"));
        QCOMPARE(a.heaviest.bytes, qint64(1 + 4 + 4 + 100000 + 1)); // type, "raw\0", length, nul
        QCOMPARE(a.heaviestDepth, 2);
    }

    void anArrayOfManySmallElementsHoldsTheWeightItself()
    {
        const SizeAnatomy a = SizeAnatomy::of(document(10, 5000), nullptr);
        QCOMPARE(a.heaviestPath, QStringLiteral("comments"));
        QCOMPARE(a.heaviest.type, QStringLiteral("array"));
        QCOMPARE(a.heaviest.children, qint64(5000));
        QVERIFY(a.share(a.heaviest.bytes) > 0.9);
        // The top parts: the heaviest two, then the rest in one.
        const auto top = a.top(2);
        QCOMPARE(top.size(), std::size_t(3));
        QCOMPARE(top[2].key, QStringLiteral("(2 other fields)"));
        QCOMPARE(top[2].bytes, a.fields[2].bytes + a.fields[3].bytes);
    }

    void badBytesAreAnErrorNotAGuess()
    {
        QByteArray doc = document(10, 2);
        doc.chop(1);
        QString error;
        const SizeAnatomy a = SizeAnatomy::of(doc, &error);
        QVERIFY(!error.isEmpty());
        QVERIFY(a.fields.empty());
        QCOMPARE(a.documentBytes, qint64(0));
    }

    void aRareFieldAndAMixedTypeAreFoundByPath()
    {
        ShapeFlag rare;
        rare.kind = ShapeFlag::Kind::RareField;
        rare.path = "legacy.flag";
        rare.examples = {{idOf(3), 3}};
        ShapeQuery q = ShapeQuery::of(rare);
        QCOMPARE(q.reach, ShapeQuery::Reach::Every);
        QCOMPARE(q.filter, QStringLiteral("{ \"legacy.flag\" : { \"$exists\" : true } }"));

        ShapeFlag mixed = rare;
        mixed.kind = ShapeFlag::Kind::MixedTypes;
        mixed.type = QStringLiteral("string");
        QCOMPARE(ShapeQuery::of(mixed).filter,
                 QStringLiteral("{ \"legacy.flag\" : { \"$type\" : \"string\" } }"));
        mixed.kind = ShapeFlag::Kind::MixedElementTypes;
        QCOMPARE(ShapeQuery::of(mixed).filter,
                 QStringLiteral("{ \"legacy.flag\" : { \"$elemMatch\" : { \"$type\" : \"string\" } "
                                "} }"));
    }

    void aHostileNameStaysAName()
    {
        ShapeFlag rare;
        rare.kind = ShapeFlag::Kind::RareField;
        rare.path = "a\"} , \"$where\": \"sleep(1)\\";
        const ShapeQuery q = ShapeQuery::of(rare);
        QCOMPARE(q.reach, ShapeQuery::Reach::Every);
        const QJsonObject filter = QJsonDocument::fromJson(q.filter.toUtf8()).object();
        QCOMPARE(filter.keys(), QStringList{QString::fromStdString(rare.path)});
    }

    void pathsNoFilterCanNameFallBackToTheExamples()
    {
        for (const char *path : {"daily.<key>.views", "m.*", "$where", "a..b", ""}) {
            QVERIFY2(!ShapeQuery::nameable(path), path);
            ShapeFlag rare;
            rare.kind = ShapeFlag::Kind::RareField;
            rare.path = path;
            rare.examples = {{idOf(3), 3}, {std::string(), 9}, {idOf(42), 42}};
            const ShapeQuery q = ShapeQuery::of(rare);
            QCOMPARE(q.reach, ShapeQuery::Reach::Examples);
            QCOMPARE(q.filter, QStringLiteral("{ \"_id\" : { \"$in\" : [ 3, 42 ] } }"));
        }
        ShapeFlag many;
        many.kind = ShapeFlag::Kind::ManyFields;
        QCOMPARE(ShapeQuery::of(many).reach, ShapeQuery::Reach::None);
        QVERIFY(ShapeQuery::of(many).filter.isEmpty());
        many.examples = {{idOf(5), 5}};
        QCOMPARE(ShapeQuery::of(many).filter, QStringLiteral("{ \"_id\" : { \"$in\" : [ 5 ] } }"));
    }
};

QTEST_APPLESS_MAIN(TestSizeAnatomy)
#include "tst_sizeanatomy.moc"
