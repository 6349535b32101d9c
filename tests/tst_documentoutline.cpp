#include "BsonFixtures.h"
#include "bson/DocumentOutline.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QTest>

#include <bson/bson.h>

#include <functional>
#include <string>

using namespace oe;

namespace {

QByteArray bytesOf(const bson_t *b)
{
    return QByteArray(reinterpret_cast<const char *>(bson_get_data(b)), qsizetype(b->len));
}

std::vector<OutlineEntry> allChildren(const QByteArray &document, qint64 offset,
                                      qint64 *total = nullptr, QString *error = nullptr)
{
    qint64 t = -1;
    QString e;
    auto entries = DocumentOutline::children(document, offset, 0, 1 << 30, &t, &e);
    if (total)
        *total = t;
    if (error)
        *error = e;
    return entries;
}

QStringList keysOf(const std::vector<OutlineEntry> &entries)
{
    QStringList keys;
    for (const auto &e : entries)
        keys << e.key;
    return keys;
}

const OutlineEntry *entryNamed(const std::vector<OutlineEntry> &entries, const QString &key)
{
    for (const auto &e : entries)
        if (e.key == key)
            return &e;
    return nullptr;
}

} // namespace

// The document viewer's lazy outline (one level at a time, offsets into the document's own
// bytes), checked against libbson's reading of the same bytes. (Its JSON: tst_indentedjson.)
class TestDocumentOutline : public QObject
{
    Q_OBJECT

private slots:
    void rootFieldsWithTypesAndPreviews()
    {
        const QByteArray doc = fixtures::bson(fixtures::kMixedTypes);
        qint64 total = -1;
        QString error;
        const auto entries = allChildren(doc, 0, &total, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(total, qint64(12));
        QCOMPARE(
            keysOf(entries),
            QStringList({QStringLiteral("_id"), QStringLiteral("name"), QStringLiteral("n"),
                         QStringLiteral("big"), QStringLiteral("x"), QStringLiteral("ok"),
                         QStringLiteral("nothing"), QStringLiteral("when"), QStringLiteral("sub"),
                         QStringLiteral("list"), QStringLiteral("empty"), QStringLiteral("none")}));
        const QStringList types = {
            QStringLiteral("objectId"), QStringLiteral("string"), QStringLiteral("int"),
            QStringLiteral("long"),     QStringLiteral("double"), QStringLiteral("bool"),
            QStringLiteral("null"),     QStringLiteral("date"),   QStringLiteral("object"),
            QStringLiteral("array"),    QStringLiteral("object"), QStringLiteral("array")};
        for (std::size_t i = 0; i < entries.size(); ++i)
            QCOMPARE(entries[i].type, types[qsizetype(i)]);

        // Scalars: previews, and value sizes from the BSON spec.
        QVERIFY(entries[0].preview.contains(QStringLiteral("65a1b2c3d4e5f60718293a4b")));
        QCOMPARE(entries[0].valueBytes, qint64(12));
        QCOMPARE(entries[1].preview, QStringLiteral("\"Ada\""));
        QCOMPARE(entries[1].valueBytes, qint64(4 + 3 + 1)); // length, bytes, NUL
        QCOMPARE(entries[2].preview, QStringLiteral("42"));
        QCOMPARE(entries[2].valueBytes, qint64(4));
        QCOMPARE(entries[3].preview, QStringLiteral("9007199254740993"));
        QCOMPARE(entries[3].valueBytes, qint64(8));
        QCOMPARE(entries[4].preview, QStringLiteral("1.5"));
        QCOMPARE(entries[4].valueBytes, qint64(8));
        QCOMPARE(entries[5].preview, QStringLiteral("true"));
        QCOMPARE(entries[5].valueBytes, qint64(1));
        QCOMPARE(entries[6].preview, QStringLiteral("null"));
        QCOMPARE(entries[6].valueBytes, qint64(0));
        QVERIFY2(entries[7].preview.contains(QStringLiteral("2024-01-02T03:04:05")),
                 qPrintable(entries[7].preview));
        for (int i = 0; i <= 7; ++i) {
            QVERIFY(!entries[std::size_t(i)].isContainer());
            QCOMPARE(entries[std::size_t(i)].childOffset, qint64(-1));
        }

        // Containers: their bytes are exactly the embedded document (arrays: keys "0", "1"...).
        struct Expected
        {
            std::size_t index;
            const char *json;
            qint64 count;
        };
        const Expected containers[] = {
            {8, "{\"a\": 1, \"b\": \"two\", \"c\": {\"d\": [1, 2]}}", 3},
            {9, "{\"0\": 10, \"1\": \"s\", \"2\": {\"k\": 1}, \"3\": [1, 2, 3]}", 4},
            {10, "{}", 0},
            {11, "{}", 0},
        };
        for (const auto &c : containers) {
            const OutlineEntry &e = entries[c.index];
            const QByteArray expected = fixtures::bson(c.json);
            QVERIFY(e.isContainer());
            QCOMPARE(e.childCount, c.count);
            QCOMPARE(e.valueBytes, qint64(expected.size()));
            QCOMPARE(doc.mid(e.childOffset, e.valueBytes), expected);
            QCOMPARE(DocumentOutline::count(doc, e.childOffset), c.count);
        }
        QCOMPARE(entries[8].preview, QStringLiteral("{ 3 fields }"));
        QCOMPARE(entries[9].preview, QStringLiteral("[ 4 elements ]"));
    }

    void containersListTheirOwnFields()
    {
        const QByteArray doc = fixtures::bson(fixtures::kMixedTypes);
        const auto root = allChildren(doc, 0);
        const OutlineEntry *sub = entryNamed(root, QStringLiteral("sub"));
        QVERIFY(sub);
        QString error;
        qint64 total = -1;
        const auto fields = allChildren(doc, sub->childOffset, &total, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(total, qint64(3));
        QCOMPARE(keysOf(fields),
                 QStringList({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
        QCOMPARE(fields[0].type, QStringLiteral("int"));
        QCOMPARE(fields[0].preview, QStringLiteral("1"));
        QCOMPARE(fields[1].type, QStringLiteral("string"));
        QCOMPARE(fields[1].preview, QStringLiteral("\"two\""));
        QCOMPARE(fields[2].type, QStringLiteral("object"));

        const auto c = allChildren(doc, fields[2].childOffset);
        QCOMPARE(c.size(), std::size_t(1));
        QCOMPARE(c[0].key, QStringLiteral("d"));
        QCOMPARE(c[0].type, QStringLiteral("array"));
        QCOMPARE(c[0].childCount, qint64(2));
        const auto d = allChildren(doc, c[0].childOffset);
        QCOMPARE(keysOf(d), QStringList({QStringLiteral("0"), QStringLiteral("1")}));
        QCOMPARE(d[0].preview, QStringLiteral("1"));
        QCOMPARE(d[1].preview, QStringLiteral("2"));

        const OutlineEntry *list = entryNamed(root, QStringLiteral("list"));
        QVERIFY(list);
        const auto elements = allChildren(doc, list->childOffset);
        QCOMPARE(keysOf(elements), QStringList({QStringLiteral("0"), QStringLiteral("1"),
                                                QStringLiteral("2"), QStringLiteral("3")}));
        QCOMPARE(elements[0].type, QStringLiteral("int"));
        QCOMPARE(elements[1].type, QStringLiteral("string"));
        QCOMPARE(elements[2].type, QStringLiteral("object"));
        QCOMPARE(elements[2].childCount, qint64(1));
        QCOMPARE(elements[3].type, QStringLiteral("array"));
        QCOMPARE(elements[3].childCount, qint64(3));
        QCOMPARE(keysOf(allChildren(doc, elements[3].childOffset)),
                 QStringList({QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2")}));
        QVERIFY(allChildren(doc, entryNamed(root, QStringLiteral("empty"))->childOffset).empty());
        QVERIFY(allChildren(doc, entryNamed(root, QStringLiteral("none"))->childOffset).empty());
    }

    void typeNames_data()
    {
        QTest::addColumn<QString>("valueJson");
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("previewContains");
        QTest::newRow("int") << QStringLiteral("-7") << QStringLiteral("int")
                             << QStringLiteral("-7");
        QTest::newRow("long") << QStringLiteral("{\"$numberLong\": \"-9223372036854775808\"}")
                              << QStringLiteral("long") << QStringLiteral("-9223372036854775808");
        QTest::newRow("decimal") << QStringLiteral("{\"$numberDecimal\": \"12.50\"}")
                                 << QStringLiteral("decimal") << QStringLiteral("12.50");
        QTest::newRow("binData")
            << QStringLiteral("{\"$binary\": {\"base64\": \"AQID\", \"subType\": \"00\"}}")
            << QStringLiteral("binData") << QStringLiteral("3 bytes");
        QTest::newRow("timestamp") << QStringLiteral("{\"$timestamp\": {\"t\": 17, \"i\": 3}}")
                                   << QStringLiteral("timestamp") << QStringLiteral("17");
        QTest::newRow("regex")
            << QStringLiteral("{\"$regularExpression\": {\"pattern\": \"ab+c\", \"options\": "
                              "\"i\"}}")
            << QStringLiteral("regex") << QStringLiteral("ab+c");
        QTest::newRow("javascript") << QStringLiteral("{\"$code\": \"return 1\"}")
                                    << QStringLiteral("javascript") << QStringLiteral("return 1");
        QTest::newRow("minKey") << QStringLiteral("{\"$minKey\": 1}") << QStringLiteral("minKey")
                                << QStringLiteral("minKey");
        QTest::newRow("maxKey") << QStringLiteral("{\"$maxKey\": 1}") << QStringLiteral("maxKey")
                                << QStringLiteral("maxKey");
        QTest::newRow("bool false")
            << QStringLiteral("false") << QStringLiteral("bool") << QStringLiteral("false");
    }
    void typeNames()
    {
        QFETCH(QString, valueJson);
        QFETCH(QString, type);
        QFETCH(QString, previewContains);
        const QByteArray json = QStringLiteral("{\"v\": %1}").arg(valueJson).toUtf8();
        const QByteArray doc = fixtures::bson(json.constData());
        QString error;
        const auto entries = allChildren(doc, 0, nullptr, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(entries.size(), std::size_t(1));
        QCOMPARE(entries[0].type, type);
        QVERIFY2(entries[0].preview.contains(previewContains), qPrintable(entries[0].preview));
        QVERIFY(!entries[0].isContainer());
    }

    void doublePreviewsReadBackAsTheSameNumber_data()
    {
        QTest::addColumn<double>("value");
        QTest::newRow("0.1") << 0.1;
        QTest::newRow("third") << 1.0 / 3.0;
        QTest::newRow("negative tiny") << -1.25e-7;
        QTest::newRow("huge") << 1e300;
        QTest::newRow("integral") << 1048576.0;
    }
    void doublePreviewsReadBackAsTheSameNumber()
    {
        QFETCH(double, value);
        bson_t *b = bson_new();
        BSON_APPEND_DOUBLE(b, "d", value);
        const QByteArray doc = bytesOf(b);
        bson_destroy(b);
        const auto entries = allChildren(doc, 0);
        QCOMPARE(entries.size(), std::size_t(1));
        QCOMPARE(entries[0].type, QStringLiteral("double"));
        bool ok = false;
        const double back = entries[0].preview.toDouble(&ok);
        QVERIFY2(ok, qPrintable(entries[0].preview));
        QCOMPARE(back, value);
    }

    void stringPreviewsAreQuotedAndShort_data()
    {
        QTest::addColumn<QString>("text");
        const int n = DocumentOutline::kPreviewChars;
        QTest::newRow("short") << QStringLiteral("hello, world");
        QTest::newRow("empty") << QString();
        QTest::newRow("fits exactly") << QString(n - 2, QLatin1Char('f'));
        QTest::newRow("one too many") << QString(n - 1, QLatin1Char('g'));
        QTest::newRow("long") << QString(5000, QLatin1Char('x'));
        // Multi-byte characters, the first one shifting every boundary by a byte.
        QTest::newRow("two-byte") << QStringLiteral("a") + QString(150, QChar(0x00e9));
        QTest::newRow("three-byte") << QStringLiteral("ab") + QString(100, QChar(0x4e2d));
        QString emoji = QStringLiteral("a");
        for (int i = 0; i < 60; ++i)
            emoji += QString::fromUtf8("\xf0\x9f\x98\x80");
        QTest::newRow("four-byte") << emoji;
        QString mixed;
        for (int i = 0; i < 40; ++i)
            mixed += QStringLiteral("ab") + QString::fromUtf8("\xf0\x9f\x98\x80");
        QTest::newRow("mixed") << mixed;
        QTest::newRow("newline") << QStringLiteral("first line\nsecond line");
    }
    void stringPreviewsAreQuotedAndShort()
    {
        QFETCH(QString, text);
        const QByteArray utf8 = text.toUtf8();
        bson_t *b = bson_new();
        bson_append_utf8(b, "s", 1, utf8.constData(), int(utf8.size()));
        const QByteArray doc = bytesOf(b);
        bson_destroy(b);
        const auto entries = allChildren(doc, 0);
        QCOMPARE(entries.size(), std::size_t(1));
        const QString preview = entries[0].preview;
        const QString oneLine = QString(text).replace(QLatin1Char('\n'), QLatin1Char(' '));
        QCOMPARE(entries[0].type, QStringLiteral("string"));
        QCOMPARE(entries[0].valueBytes, qint64(4 + utf8.size() + 1));
        QVERIFY2(preview.size() <= DocumentOutline::kPreviewChars, qPrintable(preview));
        QVERIFY(!preview.contains(QLatin1Char('\n')));
        QVERIFY(preview.startsWith(QLatin1Char('"')));
        if (oneLine.size() + 2 <= DocumentOutline::kPreviewChars) {
            QCOMPARE(preview, QLatin1Char('"') + oneLine + QLatin1Char('"'));
        } else {
            QVERIFY2(preview.endsWith(QChar(0x2026)), qPrintable(preview));
            const QString shown = preview.mid(1, preview.size() - 2);
            // What is shown is the beginning of the text, cut between characters.
            QVERIFY2(oneLine.startsWith(shown), qPrintable(preview));
            QVERIFY2(!shown.contains(QChar(QChar::ReplacementCharacter)), qPrintable(preview));
            QVERIFY2(shown.isEmpty() || !shown.back().isHighSurrogate(), qPrintable(preview));
            // ...and it fills the preview (less a character not to split a surrogate pair).
            QVERIFY2(shown.size() >= DocumentOutline::kPreviewChars - 3, qPrintable(preview));
        }
    }

    void longOtherValuesAreCutBetweenCharacters()
    {
        QString code;
        for (int i = 0; i < 200; ++i)
            code += QString::fromUtf8("\xf0\x9f\x98\x80");
        for (const QString &prefix : {QString(), QStringLiteral("x")}) {
            const QByteArray utf8 = (prefix + code).toUtf8();
            bson_t *b = bson_new();
            bson_append_code(b, "js", 2, utf8.constData());
            const QByteArray doc = bytesOf(b);
            bson_destroy(b);
            const auto entries = allChildren(doc, 0);
            QCOMPARE(entries.size(), std::size_t(1));
            const QString preview = entries[0].preview;
            QCOMPARE(entries[0].type, QStringLiteral("javascript"));
            QVERIFY(preview.size() <= DocumentOutline::kPreviewChars);
            QVERIFY(preview.endsWith(QChar(0x2026)));
            QVERIFY2(preview.isValidUtf16(), qPrintable(preview));
        }
    }

    void pagingWithFirstAndLimit()
    {
        bson_t *b = bson_new();
        for (int i = 0; i < 50; ++i)
            BSON_APPEND_INT32(
                b, QStringLiteral("f%1").arg(i, 2, 10, QLatin1Char('0')).toLatin1().constData(),
                i * 3);
        bson_t array;
        BSON_APPEND_ARRAY_BEGIN(b, "arr", &array);
        for (int i = 0; i < 1000; ++i) {
            const QByteArray key = QByteArray::number(i);
            bson_append_int32(&array, key.constData(), int(key.size()), -i);
        }
        bson_append_array_end(b, &array);
        const QByteArray doc = bytesOf(b);
        bson_destroy(b);

        struct Page
        {
            qint64 first;
            qint64 limit;
            int expectFirst; // field number of the first entry
            int expectCount;
        };
        const Page pages[] = {{0, 5, 0, 5},   {10, 5, 10, 5}, {48, 5, 48, 3},  {51, 5, -1, 0},
                              {60, 5, -1, 0}, {0, 0, -1, 0},  {0, 1000, 0, 51}};
        for (const Page &p : pages) {
            qint64 total = -1;
            QString error;
            const auto entries =
                DocumentOutline::children(doc, 0, p.first, p.limit, &total, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(total, qint64(51));
            QCOMPARE(int(entries.size()), p.expectCount);
            for (int i = 0; i < p.expectCount && p.expectFirst + i < 50; ++i) {
                const int field = p.expectFirst + i;
                QCOMPARE(entries[std::size_t(i)].key,
                         QStringLiteral("f%1").arg(field, 2, 10, QLatin1Char('0')));
                QCOMPARE(entries[std::size_t(i)].preview, QString::number(field * 3));
            }
        }
        QCOMPARE(DocumentOutline::count(doc, 0), qint64(51));

        const auto root = allChildren(doc, 0);
        const OutlineEntry *arr = entryNamed(root, QStringLiteral("arr"));
        QVERIFY(arr);
        QCOMPARE(arr->childCount, qint64(1000));
        QCOMPARE(DocumentOutline::count(doc, arr->childOffset), qint64(1000));
        qint64 total = -1;
        QString error;
        const auto tail = DocumentOutline::children(doc, arr->childOffset, 990, 20, &total, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(total, qint64(1000));
        QCOMPARE(tail.size(), std::size_t(10));
        for (int i = 0; i < 10; ++i) {
            QCOMPARE(tail[std::size_t(i)].key, QString::number(990 + i));
            QCOMPARE(tail[std::size_t(i)].preview, QString::number(-(990 + i)));
        }
    }

    void invalidOffsetsAreErrors_data()
    {
        QTest::addColumn<qint64>("offset");
        const qint64 size = fixtures::bson(fixtures::kMixedTypes).size();
        QTest::newRow("negative") << qint64(-1);
        QTest::newRow("far negative") << qint64(-1000000);
        QTest::newRow("one past the first byte") << qint64(1);
        QTest::newRow("at the end") << size;
        QTest::newRow("last four bytes") << size - 4;
        QTest::newRow("beyond the end") << size + 100;
    }
    void invalidOffsetsAreErrors()
    {
        QFETCH(qint64, offset);
        const QByteArray doc = fixtures::bson(fixtures::kMixedTypes);
        qint64 total = -1;
        QString error;
        const auto entries = DocumentOutline::children(doc, offset, 0, 100, &total, &error);
        QVERIFY(entries.empty());
        QCOMPARE(total, qint64(0));
        QVERIFY(!error.isEmpty());
        QCOMPARE(DocumentOutline::count(doc, offset), qint64(-1));
    }

    void corruptBytesAreErrors()
    {
        const QByteArray good = fixtures::bson(fixtures::kMixedTypes);
        // The declared length does not match the bytes.
        const QByteArray truncated = good.left(good.size() - 3);
        QByteArray padded = good;
        padded[0] = char(quint8(padded[0]) + 8);
        for (const QByteArray &bad : {truncated, padded, QByteArray(), QByteArray("\x05\0\0", 3)}) {
            qint64 total = -1;
            QString error;
            QVERIFY(DocumentOutline::children(bad, 0, 0, 100, &total, &error).empty());
            QVERIFY(!error.isEmpty());
            QCOMPARE(total, qint64(0));
            QCOMPARE(DocumentOutline::count(bad, 0), qint64(-1));
            error.clear();
            QVERIFY(DocumentOutline::toIndentedJson(bad, &error).isEmpty());
            QVERIFY(!error.isEmpty());
        }

        // An unknown element type in the middle: the walk stops there and says so.
        const auto entries = allChildren(good, 0);
        QByteArray badType = good;
        const qint64 nameTypeByte = 4 + 1 + 4 + 12; // after _id: type, "_id\0", ObjectId
        QCOMPARE(badType[nameTypeByte], char(0x02));
        badType[nameTypeByte] = char(0x42);
        {
            qint64 total = -1;
            QString error;
            const auto partial = DocumentOutline::children(badType, 0, 0, 100, &total, &error);
            QVERIFY2(!error.isEmpty(), "an invalid element type must be reported");
            QVERIFY(partial.size() < entries.size());
            error.clear();
            QVERIFY(DocumentOutline::toIndentedJson(badType, &error).isEmpty());
            QVERIFY(!error.isEmpty());
        }

        // A sub-document whose length runs past its parent.
        const OutlineEntry *sub = entryNamed(entries, QStringLiteral("sub"));
        QVERIFY(sub);
        QByteArray badSub = good;
        badSub[sub->childOffset + 1] = char(0x7f); // about 32 KB, in a document of 300 bytes
        {
            QString error;
            allChildren(badSub, 0, nullptr, &error);
            QVERIFY(!error.isEmpty());
            error.clear();
            qint64 total = -1;
            QVERIFY(
                DocumentOutline::children(badSub, sub->childOffset, 0, 10, &total, &error).empty());
            QVERIFY(!error.isEmpty());
        }
    }

    // Every single-byte change to a document: errors or sensible answers, never a crash.
    void anyCorruptionIsSurvived()
    {
        const QByteArray good = fixtures::bson(fixtures::kMixedTypes);
        int errors = 0;
        for (qsizetype at = 0; at < good.size(); ++at) {
            for (const char value : {char(0x00), char(0x7f), char(0xff), char(good[at] ^ 0x10)}) {
                QByteArray bad = good;
                bad[at] = value;
                std::function<void(qint64, int)> walk = [&](qint64 offset, int depth) {
                    qint64 total = -1;
                    QString error;
                    const auto entries = allChildren(bad, offset, &total, &error);
                    if (!error.isEmpty()) {
                        ++errors;
                        return;
                    }
                    QCOMPARE(qint64(entries.size()), total);
                    QCOMPARE(DocumentOutline::count(bad, offset), total);
                    for (const auto &e : entries) {
                        if (e.isContainer() && depth < 10) {
                            QVERIFY(e.childOffset > offset && e.childOffset < bad.size());
                            walk(e.childOffset, depth + 1);
                        }
                    }
                };
                walk(0, 0);
                QString error;
                const QString json = DocumentOutline::toIndentedJson(bad, &error);
                if (error.isEmpty()) {
                    QJsonParseError parse;
                    QJsonDocument::fromJson(json.toUtf8(), &parse);
                    QVERIFY2(parse.error == QJsonParseError::NoError, qPrintable(json));
                }
            }
        }
        QVERIFY(errors > 0); // the loop did reach corrupt documents
    }

    void largeDocumentOutlinesQuickly()
    {
        const int elements = 100000;
        bson_t *b = bson_new();
        BSON_APPEND_UTF8(b, "_id", "big");
        bson_t array;
        BSON_APPEND_ARRAY_BEGIN(b, "items", &array);
        const std::string pad(100, 'x');
        for (int i = 0; i < elements; ++i) {
            char key[16];
            const char *k = nullptr;
            const std::size_t keyLength =
                bson_uint32_to_string(std::uint32_t(i), &k, key, sizeof key);
            bson_t item;
            bson_append_document_begin(&array, k, int(keyLength), &item);
            BSON_APPEND_INT32(&item, "i", i);
            const std::string name = "item-" + std::to_string(i);
            BSON_APPEND_UTF8(&item, "name", name.c_str());
            BSON_APPEND_UTF8(&item, "pad", pad.c_str());
            bson_append_document_end(&array, &item);
        }
        bson_append_array_end(b, &array);
        const QByteArray doc = bytesOf(b);
        bson_destroy(b);
        QVERIFY2(doc.size() > 14 * 1000 * 1000, qPrintable(QString::number(doc.size())));

        QElapsedTimer clock;
        clock.start();
        qint64 total = -1;
        QString error;
        const auto root = DocumentOutline::children(doc, 0, 0, 500, &total, &error);
        const qint64 rootNs = clock.nsecsElapsed();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(total, qint64(2));
        QCOMPARE(root[1].key, QStringLiteral("items"));
        QCOMPARE(root[1].childCount, qint64(elements));
        QCOMPARE(root[1].valueBytes, qint64(doc.size()) - root[1].childOffset - 1);

        clock.restart();
        const auto first =
            DocumentOutline::children(doc, root[1].childOffset, 0, 500, &total, &error);
        const qint64 pageNs = clock.nsecsElapsed();
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(total, qint64(elements));
        QCOMPARE(first.size(), std::size_t(500));
        qInfo("%.1f MB document: root outlined in %.2f ms, first 500 of %d elements in %.2f ms",
              double(doc.size()) / 1e6, double(rootNs) / 1e6, elements, double(pageNs) / 1e6);
        for (int i = 0; i < 500; ++i) {
            const OutlineEntry &e = first[std::size_t(i)];
            QCOMPARE(e.key, QString::number(i));
            QCOMPARE(e.type, QStringLiteral("object"));
            QCOMPARE(e.childCount, qint64(3));
        }
        const auto fields = allChildren(doc, first[499].childOffset);
        QCOMPARE(fields.size(), std::size_t(3));
        QCOMPARE(fields[0].preview, QStringLiteral("499"));
        QCOMPARE(fields[1].preview, QStringLiteral("\"item-499\""));

        const auto last = DocumentOutline::children(doc, root[1].childOffset, elements - 500, 500,
                                                    &total, &error);
        QCOMPARE(last.size(), std::size_t(500));
        QCOMPARE(last.back().key, QString::number(elements - 1));
        QCOMPARE(allChildren(doc, last.back().childOffset)[0].preview,
                 QString::number(elements - 1));
    }
};

QTEST_APPLESS_MAIN(TestDocumentOutline)
#include "tst_documentoutline.moc"
