// The guard's part taken out of a validator (GuardValidator::without), as --remove and a
// re-apply read it, on the shapes a validator takes after the guard and after other
// administrators' changes; and GuardPolicy's choice of level and action for each starting
// combination (tst_guard checks the same on mongod); the type rule's checks, words, suggestion
// from a mixed-type flag and its place in the schema.
#include "analysis/FieldProfile.h"
#include "bson/BsonTypes.h"
#include "guard/GuardPolicy.h"
#include "guard/GuardRule.h"
#include "guard/GuardValidator.h"
#include "shape/ShapeFlag.h"
#include "split/SplitConfig.h"

#include <QtTest>

#include <bson/bson.h>

namespace {

QByteArray bsonOf(const QString &json)
{
    if (json.isEmpty())
        return {};
    const QByteArray utf8 = json.toUtf8();
    bson_t doc;
    bson_error_t error;
    if (!bson_init_from_json(&doc, utf8.constData(), utf8.size(), &error))
        return {};
    QByteArray out(reinterpret_cast<const char *>(bson_get_data(&doc)), qsizetype(doc.len));
    bson_destroy(&doc);
    return out;
}

QString guardJson()
{
    oe::SplitConfig layout;
    layout.collection = QStringLiteral("posts");
    layout.field = QStringLiteral("comments");
    layout.keep = 3;
    return oe::GuardValidator::toJson(oe::GuardValidator::schema(layout));
}

oe::ValidationSettings settings(const QString &validator, const QString &level,
                                const QString &action)
{
    QString json = QStringLiteral("{");
    QStringList parts;
    if (!validator.isEmpty())
        parts << QStringLiteral("\"validator\": %1").arg(validator);
    if (!level.isEmpty())
        parts << QStringLiteral("\"validationLevel\": \"%1\"").arg(level);
    if (!action.isEmpty())
        parts << QStringLiteral("\"validationAction\": \"%1\"").arg(action);
    return oe::ValidationSettings::fromOptions(bsonOf(json + parts.join(QLatin1Char(',')) + u'}'));
}

QStringList names(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *name : list)
        out << QString::fromLatin1(name);
    return out;
}

} // namespace

class TestGuardValidator : public QObject
{
    Q_OBJECT

private slots:
    void without_data()
    {
        QTest::addColumn<QString>("validator"); // %G stands for the guard
        QTest::addColumn<QString>("expected");
        QTest::addColumn<bool>("contains");
        const QString own = QStringLiteral("{\"title\": {\"$type\": \"string\"}}");
        const QString theirs = QStringLiteral("{\"author\": {\"$exists\": true}}");
        QTest::newRow("the guard alone") << QStringLiteral("%G") << QStringLiteral("{}") << true;
        QTest::newRow("merged with the collection's")
            << QStringLiteral("{\"$and\": [%1, %G]}").arg(own) << own << true;
        QTest::newRow("a rule added over the merged one")
            << QStringLiteral("{\"$and\": [{\"$and\": [%1, %G]}, %2]}").arg(own, theirs)
            << QStringLiteral("{\"$and\": [%1, %2]}").arg(own, theirs) << true;
        QTest::newRow("a rule added into the list")
            << QStringLiteral("{\"$and\": [%1, %G, %2]}").arg(own, theirs)
            << QStringLiteral("{\"$and\": [%1, %2]}").arg(own, theirs) << true;
        QTest::newRow("beside other keys")
            << QStringLiteral("{\"year\": {\"$gt\": 1}, \"$and\": [%G]}")
            << QStringLiteral("{\"year\": {\"$gt\": 1}}") << true;
        QTest::newRow("no guard: untouched") << own << own << false;
        QTest::newRow("a $jsonSchema of the user's own")
            << QStringLiteral("{\"$jsonSchema\": {\"title\": \"mine\"}}")
            << QStringLiteral("{\"$jsonSchema\": {\"title\": \"mine\"}}") << false;
    }
    void without()
    {
        QFETCH(QString, validator);
        QFETCH(QString, expected);
        QFETCH(bool, contains);
        const QByteArray input =
            bsonOf(QString(validator).replace(QStringLiteral("%G"), guardJson()));
        QVERIFY(!input.isEmpty());
        QCOMPARE(oe::GuardValidator::containsGuard(input), contains);
        QCOMPARE(oe::GuardValidator::toJson(oe::GuardValidator::without(input)),
                 oe::GuardValidator::toJson(bsonOf(expected)));
    }

    void policy_data()
    {
        QTest::addColumn<QString>("validator");
        QTest::addColumn<QString>("level");
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("requestAction"); // GuardAction
        QTest::addColumn<bool>("requestStrict");
        QTest::addColumn<qint64>("conflicts");
        QTest::addColumn<int>("block"); // GuardBlock
        QTest::addColumn<QString>("levelAfter");
        QTest::addColumn<QString>("actionAfter");
        const QString rule = QStringLiteral("{\"year\": {\"$type\": \"int\"}}");
        const int warn = int(oe::GuardAction::Warn), error = int(oe::GuardAction::Error);
        const int none = int(oe::GuardBlock::None);
        const int weaken = int(oe::GuardBlock::WarnWouldWeaken);
        const int strict = int(oe::GuardBlock::StrictRefusesOutliers);
        const int unknown = int(oe::GuardBlock::UnknownSetting);
        const QString M = QStringLiteral("moderate"), S = QStringLiteral("strict"),
                      O = QStringLiteral("off"), W = QStringLiteral("warn"),
                      E = QStringLiteral("error"), L = QStringLiteral("errorAndLog"), no;
        QTest::newRow("none, warn") << no << no << no << warn << false << 5LL << none << M << W;
        QTest::newRow("defaults, warn")
            << rule << no << no << warn << false << 0LL << weaken << no << no;
        QTest::newRow("defaults, error, none over")
            << rule << no << no << error << false << 0LL << none << S << E;
        QTest::newRow("defaults, error, 2 over")
            << rule << no << no << error << false << 2LL << strict << no << no;
        QTest::newRow("defaults, error strict, 2 over")
            << rule << no << no << error << true << 2LL << none << S << E;
        QTest::newRow("off/error, warn")
            << rule << O << E << warn << false << 2LL << none << M << W;
        QTest::newRow("moderate/warn, error")
            << rule << M << W << error << false << 2LL << none << M << E;
        QTest::newRow("strict/warn, warn, 2 over")
            << rule << S << W << warn << false << 2LL << none << S << W;
        QTest::newRow("moderate/errorAndLog, error")
            << rule << M << L << error << false << 2LL << none << M << L;
        QTest::newRow("a newer server's level") << rule << QStringLiteral("sometimes") << E << error
                                                << false << 0LL << unknown << no << no;
    }

    // A type rule names a usable path and real $type aliases, or says what is wrong in a line.
    void typeRuleProblems_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QStringList>("types");
        QTest::addColumn<QString>("problem"); // a part of it; empty: none
        QTest::newRow("ok") << QStringLiteral("price") << names({"double", "int"})
                            << QStringLiteral("");
        QTest::newRow("number") << QStringLiteral("a.b") << names({"number", "null"})
                                << QStringLiteral("");
        QTest::newRow("no types") << QStringLiteral("price") << names({})
                                  << QStringLiteral("at least one type");
        QTest::newRow("typo") << QStringLiteral("price") << names({"dubble"})
                              << QStringLiteral("'dubble' is not");
        QTest::newRow("missing") << QStringLiteral("price") << names({"missing"})
                                 << QStringLiteral("'missing' is not");
        QTest::newRow("dollar") << QStringLiteral("$where") << names({"int"})
                                << QStringLiteral("cannot name it");
        QTest::newRow("empty name")
            << QStringLiteral("a..b") << names({"int"}) << QStringLiteral("cannot name it");
        QTest::newRow("data keys") << QStringLiteral("stats.<key>.n") << names({"int"})
                                   << QStringLiteral("cannot name it");
        QTest::newRow("no path") << QStringLiteral("") << names({"int"})
                                 << QStringLiteral("needs a field path");
    }
    void typeRuleProblems()
    {
        QFETCH(QString, path);
        QFETCH(QStringList, types);
        QFETCH(QString, problem);
        const QString got = oe::GuardRule::bsonType(path, types, false).problem();
        if (problem.isEmpty())
            QVERIFY2(got.isEmpty(), qPrintable(got));
        else
            QVERIFY2(got.contains(problem) && !got.contains(QLatin1Char('\n')), qPrintable(got));
    }

    // The flag's minority type is left out of the suggestion; the rest of what was seen stays.
    void suggestionFromAMixedTypeFlag()
    {
        oe::FieldProfile field;
        field.typeMask = oe::BsonTypes::bit(0x01) | oe::BsonTypes::bit(0x10) |
                         oe::BsonTypes::bit(0x02) | oe::BsonTypes::bit(0x0A);
        field.elementTypeMask = oe::BsonTypes::bit(0x02) | oe::BsonTypes::bit(0x10);
        oe::ShapeFlag flag = oe::ShapeFlag::of(oe::ShapeFlag::Kind::MixedTypes, "price", 3, 60);
        flag.type = QStringLiteral("string");
        QVERIFY(oe::GuardRule::offersTypeRule(flag));
        oe::GuardRule rule = oe::GuardRule::forMixedType(flag, field);
        QCOMPARE(rule.types, (names({"double", "null", "int"})));
        QVERIFY(!rule.elements);
        QCOMPARE(rule.describe(), QStringLiteral("price is double, null or int"));
        flag.kind = oe::ShapeFlag::Kind::MixedElementTypes;
        flag.type = QStringLiteral("int");
        rule = oe::GuardRule::forMixedType(flag, field);
        QCOMPARE(rule.types, names({"string"}));
        QVERIFY(rule.elements);
        QCOMPARE(rule.describe(), QStringLiteral("the elements of price are string"));
        flag.path = "stats.<key>";
        QVERIFY(!oe::GuardRule::offersTypeRule(flag));
        flag.kind = oe::ShapeFlag::Kind::RareField;
        flag.path = "price";
        QVERIFY(!oe::GuardRule::offersTypeRule(flag));
    }

    // Rules of one guard: the split's and a type rule through an array of sub-documents sit in
    // one $jsonSchema (`properties` and `items` both lead to the nested field); the flag of an
    // older guard is read back from it; a new rule replaces only the one of the same target.
    void schemaHoldsEveryRule()
    {
        oe::SplitConfig layout;
        layout.collection = QStringLiteral("posts");
        layout.field = QStringLiteral("comments");
        layout.keep = 3;
        layout.flagField = QStringLiteral("meta.more");
        const oe::GuardRule split = oe::GuardRule::maxItems(layout);
        const oe::GuardRule likes =
            oe::GuardRule::bsonType(QStringLiteral("comments.likes"), names({"int"}), false);
        const QString json = oe::GuardValidator::toJson(oe::GuardValidator::schema({split, likes}));
        QVERIFY2(json.contains(QStringLiteral(
                     "\"comments\" : { \"items\" : { \"properties\" : { \"likes\" : { "
                     "\"bsonType\" : [ \"int\" ] } } }, \"maxItems\" : 3, \"properties\" : { "
                     "\"likes\" : { \"bsonType\" : [ \"int\" ] } } }")),
                 qPrintable(json));
        QVERIFY2(json.contains(QStringLiteral("\"description\" : \"comments at most 3 elements; "
                                              "comments.likes is int\"")),
                 qPrintable(json));
        const QByteArray merged = oe::GuardValidator::merged(
            bsonOf(QStringLiteral("{\"title\": {\"$type\": \"string\"}}")),
            oe::GuardValidator::schema({split, likes}));
        QCOMPARE(oe::GuardValidator::flagOf(merged), QStringLiteral("meta.more"));
        QCOMPARE(oe::GuardValidator::flagOf(bsonOf(QStringLiteral("{\"a\": 1}"))), QString());

        QVERIFY(split.sameTarget(oe::GuardRule::maxItems(layout)));
        QVERIFY(likes.sameTarget(oe::GuardRule::bsonType(likes.path, names({"long"}), false)));
        QVERIFY(!likes.sameTarget(oe::GuardRule::bsonType(likes.path, names({"long"}), true)));
        QVERIFY(!likes.sameTarget(split));
    }
    void policy()
    {
        QFETCH(QString, validator);
        QFETCH(QString, level);
        QFETCH(QString, action);
        QFETCH(int, requestAction);
        QFETCH(bool, requestStrict);
        QFETCH(qint64, conflicts);
        QFETCH(int, block);
        QFETCH(QString, levelAfter);
        QFETCH(QString, actionAfter);
        oe::GuardRequest request;
        request.action = oe::GuardAction(requestAction);
        request.level = requestStrict ? oe::ValidationLevel::Strict : oe::ValidationLevel::Moderate;
        const oe::GuardDecision d = oe::GuardPolicy::decide(
            settings(validator, level, action), request, conflicts, QStringLiteral("db.posts"));
        QCOMPARE(int(d.block), block);
        if (block != int(oe::GuardBlock::None)) {
            QVERIFY(!d.blockMessage.isEmpty() && !d.blockMessage.contains(QLatin1Char('\n')));
            return;
        }
        QCOMPARE(oe::validationLevelName(d.level), levelAfter);
        QCOMPARE(oe::validationActionName(d.action), actionAfter);
    }
};

QTEST_GUILESS_MAIN(TestGuardValidator)
#include "tst_guardvalidator.moc"
