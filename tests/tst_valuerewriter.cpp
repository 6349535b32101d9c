// What a rewrite makes of one value (ValueRewriter), on raw BSON values: keys to an array of
// {k, v} in the object's order with each value's bytes kept; each conversion exact or refused
// with its reason (a string that is not wholly a number, a long past 2^53, a fraction to int,
// an int past int32, "nan"), and null and values already of the type left alone.
#include "bson/internal/BsonRaw.h"
#include "remedy/RewriteConfig.h"
#include "remedy/ValueRewriter.h"

#include <QtTest>

namespace {

// The raw value (type byte, value bytes) of `json`, read as {v: <json>}'s v.
QByteArray rawOf(const QString &json)
{
    const QByteArray text = QStringLiteral("{\"v\": %1}").arg(json).toUtf8();
    bson_t doc;
    bson_error_t error;
    if (!bson_init_from_json(&doc, text.constData(), text.size(), &error))
        return {};
    bson_iter_t it;
    const QByteArray raw =
        bson_iter_init_find(&it, &doc, "v") ? oe::bsonraw::valueOf(&it) : QByteArray();
    bson_destroy(&doc);
    return raw;
}

oe::RewriteConfig convertTo(const QString &type)
{
    oe::RewriteConfig config;
    config.collection = QStringLiteral("c");
    config.path = QStringLiteral("price");
    config.kind = oe::RewriteKind::ConvertType;
    config.targetType = type;
    return config;
}

} // namespace

class TestValueRewriter : public QObject
{
    Q_OBJECT
private slots:
    void keysToArray()
    {
        oe::RewriteConfig config;
        config.collection = QStringLiteral("c");
        config.path = QStringLiteral("daily");
        config.keyName = QStringLiteral("day");
        config.valueName = QStringLiteral("n");
        const oe::RewriteResult r = oe::ValueRewriter::rewrite(
            config, rawOf(QStringLiteral("{\"b\": 1, \"a\": {\"$numberLong\": \"2\"}, \"\": "
                                         "[null, {\"x\": \"y\"}]}")));
        QCOMPARE(int(r.outcome), int(oe::RewriteResult::Outcome::Changed));
        QCOMPARE(oe::ValueRewriter::toJson(r.after),
                 QStringLiteral("[ { \"day\" : \"b\", \"n\" : 1 }, { \"day\" : \"a\", \"n\" : 2 "
                                "}, { \"day\" : \"\", \"n\" : [ null, { \"x\" : \"y\" } ] } ]"));
        // The long stays a long (its bytes are kept, not its relaxed JSON).
        QVERIFY(r.after.contains(rawOf(QStringLiteral("{\"$numberLong\": \"2\"}")).mid(1)));
        QCOMPARE(oe::ValueRewriter::toJson(
                     oe::ValueRewriter::rewrite(config, rawOf(QStringLiteral("{}"))).after),
                 QStringLiteral("[  ]"));
        const oe::RewriteResult notObject =
            oe::ValueRewriter::rewrite(config, rawOf(QStringLiteral("[1]")));
        QCOMPARE(int(notObject.outcome), int(oe::RewriteResult::Outcome::Unchanged));
        QCOMPARE(notObject.why, QStringLiteral("not an object (array)"));
    }

    void convert_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("value");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QString>("result"); // the after's JSON, or a part of why
        const int changed = int(oe::RewriteResult::Outcome::Changed);
        const int unchanged = int(oe::RewriteResult::Outcome::Unchanged);
        const int cannot = int(oe::RewriteResult::Outcome::Cannot);
        const auto row = [](const char *name, const char *type, const char *value, int outcome,
                            const char *result) {
            QTest::newRow(name) << QString::fromLatin1(type) << QString::fromUtf8(value) << outcome
                                << QString::fromUtf8(result);
        };
        row("string to double", "double", "\"12.50\"", changed, "12.5");
        row("exponent", "double", "\"1e3\"", changed, "1000.0");
        row("int to double", "double", "7", changed, "7.0");
        row("long to double", "double", "{\"$numberLong\": \"9007199254740992\"}", changed,
            "9007199254740992.0");
        row("long past 2^53", "double", "{\"$numberLong\": \"9007199254740993\"}", cannot,
            "has no exact double");
        row("long with an exact double", "double", "{\"$numberLong\": \"9007199254740994\"}",
            changed, "9007199254740994.0");
        row("16 digits", "double", "\"9007199254740993\"", cannot, "more than 15 significant");
        row("15 digits", "double", "\"123456789012345\"", changed, "123456789012345.0");
        // A subnormal double has fewer bits than 15 digits need: the text would be rounded.
        row("subnormal", "double", "\"1.2345678901e-315\"", cannot,
            "it would become 1.23456789e-315");
        row("smallest subnormal", "double", "\"4.9e-324\"", cannot, "it would become 5e-324");
        row("small normal", "double", "\"2.5e-300\"", changed, "2.4999999999999999798e-300");
        row("trailing zeros", "double", "\"100000000000000000000\"", changed, "1e+20");
        row("text", "double", "\"n/a\"", cannot, "is not a number");
        row("spaces", "double", "\" 12\"", cannot, "is not a number");
        row("part of it", "double", "\"12abc\"", cannot, "is not a number");
        row("nan", "double", "\"nan\"", cannot, "is not a number");
        row("bool", "double", "true", cannot, "a bool is not a number");
        row("null", "double", "null", unchanged, "null is left as it is");
        row("already", "double", "1.5", unchanged, "already double");
        row("whole double to int", "int", "12.0", changed, "12");
        row("fraction to int", "int", "12.5", cannot, "not a whole number in the int range");
        row("past int32", "int", "{\"$numberLong\": \"2147483648\"}", cannot, "int range");
        row("string to int", "int", "\"-42\"", changed, "-42");
        row("int to long", "long", "5", changed, "5");
        row("double to long", "long", "1e15", changed, "1000000000000000");
        row("int to string", "string", "42", changed, "\"42\"");
        row("double to string", "string", "0.1", changed, "\"0.1\"");
        row("decimal to string", "string", "{\"$numberDecimal\": \"1.10\"}", changed, "\"1.10\"");
        row("object to string", "string", "{\"a\": 1}", cannot, "has no text of its own");
    }
    void convert()
    {
        QFETCH(QString, type);
        QFETCH(QString, value);
        QFETCH(int, outcome);
        QFETCH(QString, result);
        const QByteArray raw = rawOf(value);
        QVERIFY(!raw.isEmpty());
        const oe::RewriteResult r = oe::ValueRewriter::rewrite(convertTo(type), raw);
        QCOMPARE(int(r.outcome), outcome);
        if (outcome == int(oe::RewriteResult::Outcome::Changed)) {
            QCOMPARE(oe::ValueRewriter::toJson(r.after), result);
            QCOMPARE(oe::ValueRewriter::toJson(r.after).isEmpty(), false);
        } else {
            QVERIFY2(r.why.contains(result) && !r.why.contains(QLatin1Char('\n')),
                     qPrintable(r.why));
        }
    }

    // The type each conversion makes is the target's (a long from an int, not an int).
    void convertedTypes()
    {
        const auto typeOf = [](const QString &target, const char *value) {
            const QByteArray after =
                oe::ValueRewriter::rewrite(convertTo(target), rawOf(QString::fromLatin1(value)))
                    .after;
            return after.isEmpty() ? -1 : int(std::uint8_t(after.at(0)));
        };
        QCOMPARE(typeOf(QStringLiteral("long"), "5"), int(BSON_TYPE_INT64));
        QCOMPARE(typeOf(QStringLiteral("int"), "{\"$numberLong\": \"5\"}"), int(BSON_TYPE_INT32));
        QCOMPARE(typeOf(QStringLiteral("double"), "5"), int(BSON_TYPE_DOUBLE));
        QCOMPARE(typeOf(QStringLiteral("string"), "5"), int(BSON_TYPE_UTF8));
    }

    void configProblems()
    {
        oe::RewriteConfig config = convertTo(QStringLiteral("date"));
        QVERIFY(config.problem().contains(QStringLiteral("type 'date'")));
        config = convertTo(QStringLiteral("double"));
        QVERIFY(config.problem().isEmpty());
        config.path = QStringLiteral("_id");
        QVERIFY(config.problem().contains(QStringLiteral("_id")));
        config.path = QStringLiteral("a.$b");
        QVERIFY(config.problem().contains(QStringLiteral("cannot name it")));
        config.kind = oe::RewriteKind::KeysToArray;
        config.path = QStringLiteral("daily");
        config.valueName = config.keyName;
        QVERIFY(config.problem().contains(QStringLiteral("both named 'k'")));
        QCOMPARE(config.runId(), QStringLiteral("keys_to_array:daily"));
        QCOMPARE(config.indexSuggestion(), QStringLiteral("{\"daily.k\":1}"));
    }

    // Extraction's excerpt keeps the value's type: a string's first characters (whole code
    // points, four-byte ones too), a sub-document's named keys in its order, an empty binary of
    // the same subtype (subtype 2 with its inner length); what is not big or not of those types
    // is left alone with its reason.
    void extractExcerpts()
    {
        oe::RewriteConfig config;
        config.collection = QStringLiteral("posts");
        config.kind = oe::RewriteKind::Extract;
        config.path = QStringLiteral("meta.body");
        config.excerptChars = 3;
        config.excerptKeys = {QStringLiteral("title"), QStringLiteral("by")};
        QVERIFY2(config.problem().isEmpty(), qPrintable(config.problem()));
        QCOMPARE(config.side(), QStringLiteral("posts_meta_body_full"));
        QCOMPARE(config.flag(), QStringLiteral("has_full_meta_body"));
        QCOMPARE(config.sideLeaf(), QStringLiteral("body"));
        QCOMPARE(config.runId(), QStringLiteral("extract:meta.body"));
        const auto after = [&](const char *json) {
            return oe::ValueRewriter::toJson(
                oe::ValueRewriter::rewrite(config, rawOf(QString::fromUtf8(json))).after);
        };
        QCOMPARE(after("\"a\U0001F600\u00e9xyz\""), QString::fromUtf8("\"a\U0001F600\u00e9\""));
        QCOMPARE(after("{\"by\": 1, \"text\": \"long\", \"title\": \"t\"}"),
                 QStringLiteral("{ \"by\" : 1, \"title\" : \"t\" }"));
        const oe::RewriteResult binary = oe::ValueRewriter::rewrite(
            config, rawOf(QStringLiteral("{\"$binary\": {\"base64\": \"AAEC\", \"subType\": "
                                         "\"80\"}}")));
        QCOMPARE(binary.after, QByteArray("\x05\x00\x00\x00\x00\x80", 6));
        const oe::RewriteResult old = oe::ValueRewriter::rewrite(
            config, rawOf(QStringLiteral("{\"$binary\": {\"base64\": \"AwAAAAABAg==\", "
                                         "\"subType\": \"02\"}}")));
        QCOMPARE(old.after, QByteArray("\x05\x04\x00\x00\x00\x02\x00\x00\x00\x00", 10));
        const auto outcome = [&](const char *json) {
            return oe::ValueRewriter::rewrite(config, rawOf(QString::fromUtf8(json)));
        };
        QCOMPARE(int(outcome("\"ab\"").outcome), int(oe::RewriteResult::Outcome::Unchanged));
        QVERIFY(outcome("[1]").why.contains(QStringLiteral("split")));
        QCOMPARE(int(outcome("12").outcome), int(oe::RewriteResult::Outcome::Cannot));
        QVERIFY(outcome("12").why.contains(QStringLiteral("is not extracted")));
        config.minBytes = 100;
        QVERIFY(outcome("\"abcdef\"").why.contains(QStringLiteral("under the 100")));

        config.flagField = QStringLiteral("meta");
        QVERIFY(config.problem().contains(QStringLiteral("collides")));
        config.flagField.clear();
        config.sideCollection = QStringLiteral("posts_outlier_rewrites");
        QVERIFY(config.problem().contains(QStringLiteral("is the collection or a journal")));
        config.sideCollection = QStringLiteral("bad$name");
        QVERIFY(!config.problem().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestValueRewriter)
#include "tst_valuerewriter.moc"
