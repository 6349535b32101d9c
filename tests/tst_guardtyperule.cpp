// `outlier-explorer-cli guard --type-of` against mongod: a type rule for a mixed-type field is
// kept beside the split's rule (both enforced, both recorded), beside a guard an older build
// applied, and through the split's rollback, which takes out only the split's rule.
#include "CliRunner.h"
#include "GuardBench.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

class TestGuardTypeRule : public QObject, public GuardBench
{
    Q_OBJECT

public:
    TestGuardTypeRule() : GuardBench(QStringLiteral("oe_guardtyperule")) {}

private slots:
    void initTestCase()
    {
        const QString missing = openServer();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // The same rollback with a type rule in the guard beside the split's: only the split's
    // rule is taken out (the restored arrays pass the type rule), the type rule stays enforced,
    // and --remove then gives the options back.
    void rollbackKeepsATypeRule()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("typedthreads");
        makeCollection(c, QStringLiteral("{\"title\": {\"$type\": \"string\"}}"));
        const QByteArray original = optionsOf(c);
        const auto before = fixtures::readCollection(m_uri, m_db, c);
        const QStringList target = targetOf(c);
        CliRun r = split(c);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList error = {QStringLiteral("--action"), QStringLiteral("error")};
        QVERIFY2(guard(c, layout(3) + error).exitCode == 0, "the split's guard");
        r = guard(c, QStringList{QStringLiteral("--type-of"), QStringLiteral("comments.n"),
                                 QStringLiteral("--types"), QStringLiteral("int")} +
                         error);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        r = runCli(QStringList{QStringLiteral("rollback")} + target +
                   QStringList{QStringLiteral("--field"), QStringLiteral("comments"),
                               QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(
            r.out.contains(QStringLiteral("the split's rule was taken out of the guard on "
                                          "oe_guardtyperule.typedthreads; its other rules stay: "
                                          "comments.n is int")),
            qPrintable(r.out));
        QVERIFY(fixtures::readCollection(m_uri, m_db, c) == before);
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"T\", "
                                       "\"title\": \"t\", \"comments\": [{\"n\": \"x\"}]}]}")
                            .arg(c)));
        const QString record = guardRecord(c);
        QVERIFY2(!record.contains(QStringLiteral("maxItems")) &&
                     record.contains(QStringLiteral("bsonType")),
                 qPrintable(record));
        r = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(optionsOf(c) == original, "the options differ from the original bytes");
    }

    // A type rule for a mixed-type field: the documents breaking it are counted and listed
    // (with the types they hold) before anything changes; it is kept beside the split's rule
    // (both enforced, both in the record); under error a write of another type is refused while
    // the documents already breaking it stay writable (moderate); a path through an array of
    // sub-documents and an array's elements are guarded as a query's dotted path reads them;
    // --remove takes every rule out.
    void typeRuleKeptBesideTheSplitsRule()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's (FerretDB: see ferretDbSaysSoInOneLine)");
        const QString c = QStringLiteral("prices");
        makeMixedCollection(c);
        const QByteArray original = optionsOf(c);
        CliRun r = guard(c, {QStringLiteral("--field"), QStringLiteral("replies"),
                             QStringLiteral("--keep"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        const QStringList price = {QStringLiteral("--type-of"), QStringLiteral("price"),
                                   QStringLiteral("--types"),   QStringLiteral("double,int"),
                                   QStringLiteral("--action"),  QStringLiteral("error")};
        r = guard(c, price + QStringList{QStringLiteral("--dry-run")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("kept from the guard in place: replies at most 2 "
                                               "elements")) &&
                     r.out.contains(QStringLiteral("documents breaking price is double or int: 2"
                                                   "\n  _id 3: string\n  _id 4: string\n")),
                 qPrintable(r.out));
        r = guard(c, price);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(
                     QStringLiteral("guard on oe_guardtyperule.prices: price is double or int; "
                                    "validationLevel moderate (as it was), "
                                    "validationAction warn -> error")),
                 qPrintable(r.out));
        QString error;
        QVERIFY(refused(insertPrice(c, QStringLiteral("s"), QStringLiteral("\"free\""))));
        QVERIFY2(run(insertPrice(c, QStringLiteral("i"), QStringLiteral("4")), &error),
                 qPrintable(error));
        // Both rules hold: a fourth reply is refused too.
        QVERIFY(
            refused(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": 1}, "
                                   "\"u\": {\"$push\": {\"replies\": {\"$each\": [{}, {}]}}}}]}")
                        .arg(c)));
        // A document already breaking it is left writable (moderate) until it is fixed.
        QVERIFY2(run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": 3}, "
                                    "\"u\": {\"$set\": {\"seen\": true}}}]}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        const QString record = guardRecord(c);
        QVERIFY2(record.contains(QStringLiteral("\"version\" : 3")) &&
                     record.contains(QStringLiteral("\"kind\" : \"maxItems\"")) &&
                     record.contains(QStringLiteral("\"types\" : [ \"double\", \"int\" ]")),
                 qPrintable(record));

        // Through an array of sub-documents, and an array's elements.
        r = guard(c, {QStringLiteral("--type-of"), QStringLiteral("replies.likes"),
                      QStringLiteral("--types"), QStringLiteral("int"), QStringLiteral("--action"),
                      QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("  _id 3: string\n")), qPrintable(r.out));
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"r\", "
                                       "\"replies\": [{\"likes\": 1}, {\"likes\": \"x\"}]}]}")
                            .arg(c)));
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"o\", "
                                       "\"replies\": {\"likes\": \"x\"}}]}")
                            .arg(c)));
        r = guard(c,
                  {QStringLiteral("--type-of"), QStringLiteral("tags"), QStringLiteral("--types"),
                   QStringLiteral("string"), QStringLiteral("--elements"),
                   QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(
            r.out.contains(QStringLiteral("documents breaking the elements of tags are string: "
                                          "1\n  _id 2: int\n")),
            qPrintable(r.out));
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"t\", "
                                       "\"tags\": [\"a\", null]}]}")
                            .arg(c)));
        // The price rule is still there after two more rules.
        QVERIFY(refused(insertPrice(c, QStringLiteral("s2"), QStringLiteral("\"free\""))));

        r = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(run(insertPrice(c, QStringLiteral("s3"), QStringLiteral("\"free\"")), &error),
                 qPrintable(error));
        QVERIFY(validatorJson(c).isEmpty() || validatorJson(c) == QStringLiteral("{ }"));
        Q_UNUSED(original);
    }

    // A guard an older build applied (a version 2 record: one split rule, its flag not recorded)
    // gains a type rule: the split's rule, flag included, is kept, and the record is version 3.
    void typeRuleBesideAnOlderBuildsGuard()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("olderprices");
        makeMixedCollection(c);
        QString error;
        QVERIFY2(run(QStringLiteral(
                         "{\"insert\": \"outlier_explorer_guards\", \"documents\": [{\"_id\": "
                         "\"%1\", \"version\": 2, \"previous\": {}, \"applied\": "
                         "{\"validationLevel\": \"moderate\", \"validationAction\": \"warn\"}, "
                         "\"field\": \"replies\", \"keep\": {\"$numberLong\": \"2\"}, "
                         "\"appliedAt\": {\"$date\": \"2026-11-01T00:00:00Z\"}}]}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        QVERIFY2(run(QStringLiteral(
                         "{\"collMod\": \"%1\", \"validator\": {\"$jsonSchema\": {\"bsonType\": "
                         "\"object\", \"title\": \"outlier-explorer guard\", \"properties\": "
                         "{\"replies\": {\"maxItems\": 2}, \"more\": {\"bsonType\": \"bool\"}}}}, "
                         "\"validationLevel\": \"moderate\", \"validationAction\": \"warn\"}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        const CliRun r = guard(c, {QStringLiteral("--type-of"), QStringLiteral("price"),
                                   QStringLiteral("--types"), QStringLiteral("number"),
                                   QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("kept from the guard in place: replies at most 2 "
                                               "elements")),
                 qPrintable(r.out));
        const QString validator = validatorJson(c);
        QVERIFY2(validator.contains(QStringLiteral("\"more\" : { \"bsonType\" : \"bool\" }")) &&
                     validator.contains(QStringLiteral("\"maxItems\"")) &&
                     validator.contains(QStringLiteral("\"number\"")),
                 qPrintable(validator));
        QVERIFY(refused(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": 1}, "
                                       "\"u\": {\"$set\": {\"more\": \"yes\"}}}]}")
                            .arg(c)));
        const QString record = guardRecord(c);
        QVERIFY2(record.contains(QStringLiteral("\"version\" : 3")) &&
                     record.contains(QStringLiteral("\"flag\" : \"more\"")) &&
                     !record.contains(QStringLiteral("\"field\"")),
                 qPrintable(record));
        QVERIFY2(guard(c, {QStringLiteral("--remove")}).exitCode == 0, "remove failed");
    }

    // An administrator adds `required: ["sku"]` inside the guard's own $jsonSchema (issue 53,
    // defect 4): taking the guard out would take their rule out too, so --remove refuses without
    // --force (one line, nothing changed, the insert without sku still refused), and so does a
    // new guard that would replace it; --force takes it out and says so.
    void removeRefusesAGuardEditedInside()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("priced");
        run(QStringLiteral("{\"drop\": \"%1\"}").arg(c));
        QString error;
        QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": 1, "
                                    "\"sku\": \"a\", \"price\": 1.5}]}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        const QStringList price = {QStringLiteral("--type-of"), QStringLiteral("price"),
                                   QStringLiteral("--types"),   QStringLiteral("double,int"),
                                   QStringLiteral("--action"),  QStringLiteral("error")};
        CliRun r = guard(c, price);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // The administrator's edit: `required` inside the guard's schema.
        QJsonObject validator = QJsonDocument::fromJson(validatorJson(c).toUtf8()).object();
        QJsonObject schema = validator.value(QStringLiteral("$jsonSchema")).toObject();
        QVERIFY2(!schema.isEmpty(), qPrintable(validatorJson(c)));
        schema.insert(QStringLiteral("required"), QJsonArray{QStringLiteral("sku")});
        validator.insert(QStringLiteral("$jsonSchema"), schema);
        QVERIFY2(run(QStringLiteral("{\"collMod\": \"%1\", \"validator\": %2}")
                         .arg(c, QString::fromUtf8(
                                     QJsonDocument(validator).toJson(QJsonDocument::Compact))),
                     &error),
                 qPrintable(error));
        const QString noSku = QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": "
                                             "2, \"price\": 2.5}]}")
                                  .arg(c);
        QVERIFY(refused(noSku));
        const QByteArray theirs = optionsOf(c);

        r = guard(c, {QStringLiteral("--remove")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("was edited since it was applied")) &&
                     r.err.contains(QStringLiteral("--force")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
        QVERIFY(optionsOf(c) == theirs);
        QVERIFY(refused(noSku));
        r = guard(c,
                  {QStringLiteral("--type-of"), QStringLiteral("price"), QStringLiteral("--types"),
                   QStringLiteral("double"), QStringLiteral("--action"), QStringLiteral("error")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("so would replacing it")), qPrintable(r.err));
        QVERIFY(optionsOf(c) == theirs);

        r = guard(c, {QStringLiteral("--remove"), QStringLiteral("--force")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("taken out (--force)")), qPrintable(r.out));
        QVERIFY(!validatorJson(c).contains(QStringLiteral("sku")));
    }
};

QTEST_MAIN(TestGuardTypeRule)
#include "tst_guardtyperule.moc"
