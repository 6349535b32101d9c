// The collections tst_servermeasure measures both ways: shapes built to be awkward.
#include "MeasureShapes.h"

#include "BsonFixtures.h"

#include <QStringList>

namespace fixtures {

namespace {

QString ints(int count, int from = 0)
{
    QStringList items;
    for (int i = 0; i < count; ++i)
        items << QString::number(from + i);
    return items.join(QLatin1Char(','));
}

} // namespace

QByteArray restHeavyDump()
{
    QList<QByteArray> docs;
    for (int i = 0; i < 300; ++i)
        docs << bson(QStringLiteral("{\"_id\": %1, \"note\": \"%2\", \"tags\": [%3]}")
                         .arg(i)
                         .arg(QString(2000 + i, QLatin1Char('n')), ints(i % 5))
                         .toUtf8()
                         .constData());
    return concat(docs);
}

QByteArray nestedDump()
{
    const QStringList rest{
        QStringLiteral("\"d\": 1.5, \"l\": {\"$numberLong\": \"7\"}"),
        QStringLiteral("\"dec\": {\"$numberDecimal\": \"1.10\"}, \"b\": true"),
        QStringLiteral("\"bin\": {\"$binary\": {\"base64\": \"AAEC\", \"subType\": \"80\"}}"),
        QStringLiteral("\"re\": {\"$regularExpression\": {\"pattern\": \"a+\", "
                       "\"options\": \"i\"}}, \"n\": null"),
        QStringLiteral("\"code\": {\"$code\": \"f()\"}, \"t\": {\"$timestamp\": "
                       "{\"t\": 1, \"i\": 2}}"),
        QStringLiteral("\"u\": {\"$undefined\": true}, \"mk\": {\"$minKey\": 1}"),
        QStringLiteral("\"sym\": {\"$symbol\": \"s\"}, \"dt\": {\"$date\": "
                       "{\"$numberLong\": \"-5\"}}"),
    };
    QList<QByteArray> docs;
    for (int i = 0; i < 600; ++i) {
        QString items;
        switch (i % 8) {
        case 0:
            items = QStringLiteral("\"items\": \"a string\", ");
            break;
        case 1:
            items = QStringLiteral("\"items\": [], ");
            break;
        case 2:
            items = QStringLiteral("\"items\": [[1, 2], [3]], ");
            break;
        case 3:
            break;
        default:
            items = QStringLiteral("\"items\": [%1], ").arg(ints(i % 97 * (i % 50 == 4 ? 40 : 1)));
        }
        QString p = QStringLiteral("{\"x\": \"%1\", \"q\": {%2\"w\": %3}, %4}")
                        .arg(QString(i % 13, QLatin1Char('x')), items)
                        .arg(i)
                        .arg(rest[i % rest.size()]);
        if (i % 11 == 5)
            p = QStringLiteral("\"p is a string here\"");
        else if (i % 17 == 6)
            p = QStringLiteral("{\"other\": 1}");
        const QString json = QStringLiteral("{\"_id\": %1, \"head\": \"h\", \"p\": %2, "
                                            "\"tail\": {\"deep\": [1, {\"e\": 2}]}, %3}")
                                 .arg(i)
                                 .arg(p, rest[(i + 3) % rest.size()]);
        docs << bson(json.toUtf8().constData());
    }
    return concat(docs);
}

// 2,000 documents of every awkward shape the measurement must see through; with
// `oddKeys`, arrays under keys with dots and a leading `$` too.
QByteArray awkwardDump(bool oddKeys)
{
    const QStringList ids{
        QStringLiteral("{\"$oid\": \"65a000000000000000000%1\"}"),
        QStringLiteral("%1"),
        QStringLiteral("{\"$numberLong\": \"9000000%1\"}"),
        QStringLiteral("%1.25"),
        QStringLiteral("{\"$numberDecimal\": \"7%1.5\"}"),
        QStringLiteral("\"id-%1\""),
        QStringLiteral("{\"$date\": {\"$numberLong\": \"16000000%1000\"}}"),
        QStringLiteral("{\"$timestamp\": {\"t\": 17%1, \"i\": 1}}"),
        QStringLiteral("{\"n\": %1, \"s\": \"x\"}"),
        QStringLiteral("{\"$binary\": {\"base64\": \"AAAA\", \"subType\": \"0%1\"}}"),
    };
    QList<QByteArray> docs;
    for (int i = 0; i < 2000; ++i) {
        QString id;
        if (i < 1960) {
            const QString pattern = ids[i % ids.size()];
            const int n = i / ids.size();
            id = pattern.contains(QStringLiteral("subType"))
                     ? QStringLiteral("{\"$binary\": {\"base64\": \"%1\", \"subType\": \"00\"}}")
                           .arg(QString::fromLatin1(QByteArray::number(n).toBase64()))
                 : pattern.contains(QStringLiteral("$oid"))
                     ? QStringLiteral("{\"$oid\": \"%1\"}").arg(n, 24, 16, QLatin1Char('0'))
                     : pattern.arg(n);
        } else {
            const QStringList singles{QStringLiteral("null"), QStringLiteral("true"),
                                      QStringLiteral("false"), QStringLiteral("{\"$minKey\": 1}"),
                                      QStringLiteral("{\"$maxKey\": 1}")};
            id = i - 1960 < singles.size() ? singles[i - 1960]
                                           : QStringLiteral("\"tail-%1\"").arg(i);
        }
        QString activities;
        switch (i % 10) {
        case 0:
            activities = QStringLiteral("\"not an array\"");
            break;
        case 1:
            activities = QStringLiteral("{\"type\": \"single\", \"replies\": [1, 2]}");
            break;
        case 2:
            activities = QStringLiteral("[]");
            break;
        case 3:
            break; // missing
        default: {
            QStringList elements;
            for (int k = 0; k < (i * 7) % 41 + 1; ++k) {
                if (k == 5 && i % 3 == 0)
                    elements << QStringLiteral("5") << QStringLiteral("null");
                else if (k % 4 == 1)
                    elements << QStringLiteral("{\"type\": \"like\", \"replies\": \"none\"}");
                else
                    elements << QStringLiteral("{\"type\": \"post\", \"n\": %1, \"replies\": "
                                               "[%2]}")
                                    .arg(k)
                                    .arg(ints(k % 6));
            }
            // 0.05 %: one document holds a large array inside an element.
            if (i == 1234)
                elements << QStringLiteral("{\"type\": \"rare\", \"attachments\": [%1]}")
                                .arg(ints(3000));
            activities = QLatin1Char('[') + elements.join(QLatin1Char(',')) + QLatin1Char(']');
        }
        }
        QString meta = i % 17 == 0
                           ? QStringLiteral("[{\"tags\": [\"a\", \"b\"]}, 3]")
                           : QStringLiteral("{\"tags\": [%1], \"by\": \"x\"}").arg(ints(i % 5));
        QString json = QStringLiteral("{\"_id\": %1, \"meta\": %2").arg(id, meta);
        if (oddKeys)
            json += QStringLiteral(", \"a.b\": [%1], \"odd\": [{\"k.y\": [1, 2], \"$z\": "
                                   "[3]}, {\"w\": 1}]")
                        .arg(ints(i % 3));
        if (!activities.isEmpty())
            json += QStringLiteral(", \"activities\": ") + activities;
        if (oddKeys && i % 7 == 0)
            json += QStringLiteral(", \"$dollar\": [1, 2, 3]");
        // 0.05 %: one document holds a large array at a path no other has.
        if (i == 777)
            json += QStringLiteral(", \"rare\": [%1]").arg(ints(5000));
        json += QLatin1Char('}');
        docs << fixtures::bson(json.toUtf8().constData());
    }
    return fixtures::concat(docs);
}

// One document of exactly 16 MiB whose array holds an array (so it cannot be summarised and
// comes whole), among small ones.
QByteArray sixteenMebibyteDump()
{
    QList<QByteArray> docs;
    for (int i = 0; i < 50; ++i)
        docs << fixtures::bson(
            QStringLiteral("{\"_id\": %1, \"items\": [{\"v\": \"%2\", \"r\": [1, 2]}]}")
                .arg(i)
                .arg(QString(20 + i, QLatin1Char('x')))
                .toUtf8()
                .constData());
    const int maximum = 16 * 1024 * 1024;
    const QByteArray small =
        fixtures::bson("{\"_id\": 50, \"items\": [[1, 2], {\"v\": \"\", \"r\": [3]}]}");
    const int pad = maximum - small.size();
    docs << fixtures::bson(
        QStringLiteral("{\"_id\": 50, \"items\": [[1, 2], {\"v\": \"%1\", \"r\": [3]}]}")
            .arg(QString(pad, QLatin1Char('p')))
            .toUtf8()
            .constData());
    return fixtures::concat(docs);
}

} // namespace fixtures
