// The document viewer's extended JSON: libbson's relaxed extended JSON laid out by
// JsonIndenter, checked against libbson's own text parsed by QJsonDocument.
#include "BsonFixtures.h"
#include "bson/DocumentOutline.h"
#include "bson/JsonIndenter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QTest>

#include <bson/bson.h>

#include <string>

using namespace oe;

namespace {

QByteArray bytesOf(const bson_t *b)
{
    return QByteArray(reinterpret_cast<const char *>(bson_get_data(b)), qsizetype(b->len));
}

// libbson's own relaxed extended JSON of the document: the reference for toIndentedJson.
QByteArray libbsonJson(const QByteArray &document)
{
    bson_t doc;
    if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(document.constData()),
                          std::size_t(document.size())))
        return {};
    std::size_t len = 0;
    char *json = bson_as_relaxed_extended_json(&doc, &len);
    if (!json)
        return {};
    QByteArray out(json, qsizetype(len));
    bson_free(json);
    return out;
}

// A document with strings that look like JSON syntax, in keys and values.
QByteArray trickyStrings()
{
    bson_t *doc = bson_new();
    const char *const pairs[][2] = {
        {"a{b}", "{not: [an, object]}"},
        {"c,d", "a,b,,c,"},
        {"q\"uote", "say \"hi\", \"there\""},
        {"back\\slash", "C:\\path\\"},
        {"colon:key", "k: v :: w"},
        {"\xc3\xbc-\xc3\xb1-\xe4\xb8\xad\xe6\x96\x87-\xf0\x9f\x98\x80",
         "\xc3\xbc"
         "n\xc3\xaf"
         "c\xc3\xb6"
         "d\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80"},
        {"ends", "\\\"}"},
        {"bracket", "]"},
        {"whitespace", "tab\there\nnewline  two  spaces"},
        {"empty", ""},
        {"braces only", "{}[]"},
    };
    for (const auto &p : pairs)
        bson_append_utf8(doc, p[0], -1, p[1], -1);
    bson_t sub;
    BSON_APPEND_DOCUMENT_BEGIN(doc, "nested {,:}", &sub);
    BSON_APPEND_UTF8(&sub, "x\"y", "[1, 2] {\"z\": 3}");
    bson_append_document_end(doc, &sub);
    const QByteArray bytes = bytesOf(doc);
    bson_destroy(doc);
    return bytes;
}

} // namespace

class TestIndentedJson : public QObject
{
    Q_OBJECT

private slots:
    void indentedJsonMatchesLibbson_data()
    {
        QTest::addColumn<QByteArray>("document");
        QTest::newRow("mixed types") << fixtures::bson(fixtures::kMixedTypes);
        QTest::newRow("tricky strings") << trickyStrings();
        QTest::newRow("nested empties")
            << fixtures::bson("{\"a\": {}, \"b\": [], \"c\": [{}, [], [[]], {\"d\": {}}], \"e\": "
                              "{\"f\": {\"g\": []}}}");
        QTest::newRow("numbers") << fixtures::bson(
            "{\"arr\": [{\"x\": -1.25e-7}, {\"y\": 1e300}, 0, -0.5], "
            "\"i64\": {\"$numberLong\": \"-9223372036854775808\"}, \"t\": true, \"f\": false}");
        QTest::newRow("empty document") << fixtures::bson("{}");
        QTest::newRow("deep") << fixtures::bson(
            "{\"a\": {\"b\": {\"c\": {\"d\": {\"e\": [1, [2, [3, [4, {\"f\": \"g\"}]]]]}}}}}");
    }
    void indentedJsonMatchesLibbson()
    {
        QFETCH(QByteArray, document);
        QString error;
        const QString indented = DocumentOutline::toIndentedJson(document, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QJsonParseError parse;
        const QJsonDocument ours = QJsonDocument::fromJson(indented.toUtf8(), &parse);
        QVERIFY2(parse.error == QJsonParseError::NoError,
                 qPrintable(parse.errorString() + QStringLiteral(" in\n") + indented));
        const QByteArray reference = libbsonJson(document);
        QVERIFY(!reference.isEmpty());
        const QJsonDocument theirs = QJsonDocument::fromJson(reference, &parse);
        QVERIFY2(parse.error == QJsonParseError::NoError, reference.constData());
        QVERIFY2(ours == theirs, qPrintable(indented));
        // Two spaces per level, no trailing blanks.
        const QStringList lines = indented.split(QLatin1Char('\n'));
        for (const QString &line : lines) {
            qsizetype indent = 0;
            while (indent < line.size() && line.at(indent) == QLatin1Char(' '))
                ++indent;
            QVERIFY2(indent % 2 == 0, qPrintable(line));
            QVERIFY2(!line.endsWith(QLatin1Char(' ')), qPrintable(line));
        }
    }

    void layoutIsTwoSpacesAndEmptyContainersStayOnOneLine()
    {
        const QByteArray doc = fixtures::bson(
            "{\"a\": 1, \"b\": {\"c\": [1, \"x\"]}, \"e\": {}, \"f\": [], \"g\": [{}, []]}");
        QString error;
        const QString indented = DocumentOutline::toIndentedJson(doc, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString expected = QStringLiteral("{\n"
                                                "  \"a\": 1,\n"
                                                "  \"b\": {\n"
                                                "    \"c\": [\n"
                                                "      1,\n"
                                                "      \"x\"\n"
                                                "    ]\n"
                                                "  },\n"
                                                "  \"e\": {},\n"
                                                "  \"f\": [],\n"
                                                "  \"g\": [\n"
                                                "    {},\n"
                                                "    []\n"
                                                "  ]\n"
                                                "}");
        QCOMPARE(indented, expected);
        QCOMPARE(DocumentOutline::toIndentedJson(fixtures::bson("{}"), &error),
                 QStringLiteral("{}"));
        // The indenter on its own: whitespace inside strings is kept as it is.
        const std::string raw = "{ \"k\" : \"a  { b } , c : [ ]\" , \"l\" : [ ] }";
        QCOMPARE(JsonIndenter::indent(raw.data(), raw.size()),
                 std::string("{\n  \"k\": \"a  { b } , c : [ ]\",\n  \"l\": []\n}"));
        QCOMPARE(JsonIndenter::compact(raw.data(), raw.size()),
                 std::string("{\"k\":\"a  { b } , c : [ ]\",\"l\":[]}"));
    }

    void stringsKeepTheirCharacters()
    {
        const QByteArray doc = trickyStrings();
        QString error;
        const QString indented = DocumentOutline::toIndentedJson(doc, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject object = QJsonDocument::fromJson(indented.toUtf8()).object();
        QCOMPARE(object.value(QStringLiteral("a{b}")).toString(),
                 QStringLiteral("{not: [an, object]}"));
        QCOMPARE(object.value(QStringLiteral("q\"uote")).toString(),
                 QStringLiteral("say \"hi\", \"there\""));
        QCOMPARE(object.value(QStringLiteral("back\\slash")).toString(),
                 QStringLiteral("C:\\path\\"));
        QCOMPARE(object.value(QStringLiteral("colon:key")).toString(), QStringLiteral("k: v :: w"));
        QCOMPARE(object.value(QStringLiteral("whitespace")).toString(),
                 QStringLiteral("tab\there\nnewline  two  spaces"));
        QCOMPARE(object.value(QStringLiteral("ends")).toString(), QStringLiteral("\\\"}"));
        QVERIFY(indented.contains(QString::fromUtf8("\xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80")));
        QCOMPARE(object.value(QStringLiteral("nested {,:}"))
                     .toObject()
                     .value(QStringLiteral("x\"y"))
                     .toString(),
                 QStringLiteral("[1, 2] {\"z\": 3}"));
    }
};

QTEST_APPLESS_MAIN(TestIndentedJson)
#include "tst_indentedjson.moc"
