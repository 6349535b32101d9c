// `outlier-explorer-cli guard` against the real servers: on mongod the guard is merged with the
// collection's own validator (never replacing it) and never sets its level or action below the
// collection's own (every starting combination, checked before and after); it counts the
// documents over it before anything changes, refuses a naive $push past KEEP under --action
// error while leaving the documents already over alone (moderate); --remove takes out only the
// guard's part, refuses without --force when someone changed the validator since, reads a
// record an older build wrote, and says what collMod cannot unset. On FerretDB (no validators)
// it says so in one line and changes nothing. The type rules: tst_guardtyperule.
#include "CliRunner.h"
#include "GuardBench.h"
#include "LiveDocuments.h"
#include "LiveServer.h"

#include <QtTest>

#include <bson/bson.h>

class TestGuard : public QObject, public GuardBench
{
    Q_OBJECT

public:
    TestGuard() : GuardBench(QStringLiteral("oe_guard")) {}

private slots:
    void initTestCase()
    {
        const QString missing = openServer();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // The collection's own validator stays (under $and), the count comes first, the dry run
    // changes nothing, a second apply may not weaken the collection's error to warn, and
    // --remove restores the options byte for byte (they were all listed).
    void mergesEnforcesAndRestores()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's (FerretDB: see ferretDbSaysSoInOneLine)");
        const QString c = QStringLiteral("reviews");
        makeCollection(c, QStringLiteral("{\"title\": {\"$type\": \"string\"}}"),
                       QStringLiteral("moderate"), QStringLiteral("error"));
        const QByteArray original = optionsOf(c);
        QVERIFY(!original.isEmpty());

        CliRun r =
            guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error"),
                                             QStringLiteral("--dry-run")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents over the guard now: 1 ")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("\"$and\"")) &&
                     r.out.contains(QStringLiteral("\"maxItems\" : 3")) &&
                     r.out.contains(QStringLiteral("\"validationLevel\" : \"moderate\"")) &&
                     r.out.contains(QStringLiteral("now: validationLevel moderate, "
                                                   "validationAction error")),
                 qPrintable(r.out));
        QVERIFY(optionsOf(c) == original); // a dry run changes nothing

        r = guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("validationLevel moderate (as it was), "
                                               "validationAction error (as it was)")),
                 qPrintable(r.out));
        QString error;
        QVERIFY(refused(pushTo(c, QStringLiteral("B"), 3)));                         // 4 > 3
        QVERIFY2(run(pushTo(c, QStringLiteral("B"), 2), &error), qPrintable(error)); // 3
        // The outlier already over it is left alone (moderate) until it is split.
        QVERIFY2(run(pushTo(c, QStringLiteral("C"), 1), &error), qPrintable(error));
        // The collection's own rule still holds, and so does the flag's type.
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"D\", "
                                       "\"title\": 7}]}")
                            .arg(c)));
        QVERIFY(
            refused(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": \"B\"}, "
                                   "\"u\": {\"$set\": {\"has_extras\": \"yes\"}}}]}")
                        .arg(c)));

        // Applied again with warn: the collection's own rule errors, so warn would let in what
        // it refuses: one line, nothing changed.
        const QByteArray guarded = optionsOf(c);
        r = guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("warn")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.out.contains(QStringLiteral("a guard is in place already")), qPrintable(r.out));
        QVERIFY2(r.err.contains(QStringLiteral("warn would weaken")) &&
                     r.err.contains(QStringLiteral("use error")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
        QVERIFY(optionsOf(c) == guarded);
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"E\", "
                                       "\"title\": 8}]}")
                            .arg(c)));

        r = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(!r.out.contains(QStringLiteral("not byte for byte")), qPrintable(r.out));
        QVERIFY2(optionsOf(c) == original, "the options differ from the original bytes");
        QVERIFY(
            !fixtures::collectionExists(m_uri, m_db, QStringLiteral("outlier_explorer_guards")) ||
            fixtures::readCollection(m_uri, m_db, QStringLiteral("outlier_explorer_guards"))
                .empty());
        // Removing twice: one line, usage error.
        r = guard(c, {QStringLiteral("--remove")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("has no guard of Outlier Explorer")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
    }

    // Every level and action a collection may start with, and every request: the guard never
    // sets either below the collection's own (read back from the server), the collection's own
    // rule refuses after what it refused before, where the request cannot be met it says why in
    // one line and changes nothing, and --remove gives the level and action back.
    void levelAndActionNeverLowered_data()
    {
        QTest::addColumn<QString>("validator");
        QTest::addColumn<QString>("level");  // at create; "" not given
        QTest::addColumn<QString>("action"); // at create; "" not given
        QTest::addColumn<QStringList>("request");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("levelAfter"); // or the refusal's words, when exit 2
        QTest::addColumn<QString>("actionAfter");

        const QString rule = yearRule();
        const QStringList warn = {QStringLiteral("--action"), QStringLiteral("warn")};
        const QStringList error = {QStringLiteral("--action"), QStringLiteral("error")};
        const QStringList strict =
            error + QStringList{QStringLiteral("--level"), QStringLiteral("strict")};
        const QString weaken = QStringLiteral("warn would weaken");
        const QString strictly = QStringLiteral("validates strictly");
        const auto row = [&](const char *name, const QString &validator, const QString &level,
                             const QString &action, const QStringList &request, int exitCode,
                             const QString &levelAfter, const QString &actionAfter) {
            QTest::newRow(name) << validator << level << action << request << exitCode << levelAfter
                                << actionAfter;
        };
        const QString M = QStringLiteral("moderate"), S = QStringLiteral("strict"),
                      O = QStringLiteral("off"), W = QStringLiteral("warn"),
                      E = QStringLiteral("error"), none;
        row("no validator, warn", none, none, none, warn, 0, M, W);
        row("no validator, error", none, none, none, error, 0, M, E);
        row("no validator, error strict", none, none, none, strict, 0, S, E);
        row("defaults, warn", rule, none, none, warn, 2, weaken, none);
        row("defaults, error", rule, none, none, error, 2, strictly, none);
        row("defaults, error strict", rule, none, none, strict, 0, S, E);
        row("off/warn, warn", rule, O, W, warn, 0, M, W);
        row("off/warn, error", rule, O, W, error, 0, M, E);
        row("off/warn, error strict", rule, O, W, strict, 0, S, E);
        row("off/error, warn", rule, O, E, warn, 0, M, W);
        row("off/error, error", rule, O, E, error, 0, M, E);
        row("off/error, error strict", rule, O, E, strict, 0, S, E);
        row("moderate/warn, warn", rule, M, W, warn, 0, M, W);
        row("moderate/warn, error", rule, M, W, error, 0, M, E);
        row("moderate/warn, error strict", rule, M, W, strict, 0, S, E);
        row("moderate/error, warn", rule, M, E, warn, 2, weaken, none);
        row("moderate/error, error", rule, M, E, error, 0, M, E);
        row("moderate/error, error strict", rule, M, E, strict, 0, S, E);
        row("strict/warn, warn", rule, S, W, warn, 0, S, W);
        row("strict/warn, error", rule, S, W, error, 2, strictly, none);
        row("strict/warn, error strict", rule, S, W, strict, 0, S, E);
        row("strict/error, warn", rule, S, E, warn, 2, weaken, none);
        row("strict/error, error", rule, S, E, error, 2, strictly, none);
        row("strict/error, error strict", rule, S, E, strict, 0, S, E);
    }
    void levelAndActionNeverLowered()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        QFETCH(QString, validator);
        QFETCH(QString, level);
        QFETCH(QString, action);
        QFETCH(QStringList, request);
        QFETCH(int, exitCode);
        QFETCH(QString, levelAfter);
        QFETCH(QString, actionAfter);
        const QString c = QStringLiteral("combos");
        makeCollection(c, validator, level, action);
        const QByteArray original = optionsOf(c);
        const QString beforeLevel = textOption(original, "validationLevel", "strict");
        const QString beforeAction = textOption(original, "validationAction", "error");
        const QString bad = QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": "
                                           "\"Y%2\", \"year\": \"not-an-int\"}]}")
                                .arg(c);
        const bool refusedBefore = !validator.isEmpty() && beforeLevel != QLatin1String("off") &&
                                   beforeAction == QLatin1String("error");

        const CliRun r = guard(c, layout(3) + request);
        QCOMPARE(r.exitCode, exitCode);
        if (exitCode != 0) {
            QVERIFY2(r.err.contains(levelAfter) && r.err.trimmed().count(QLatin1Char('\n')) == 0,
                     qPrintable(r.err));
            QVERIFY2(optionsOf(c) == original, "a refused guard changed the options");
            QVERIFY(!fixtures::collectionExists(m_uri, m_db,
                                                QStringLiteral("outlier_explorer_guards")) ||
                    fixtures::readCollection(m_uri, m_db, QStringLiteral("outlier_explorer_guards"))
                        .empty());
            return;
        }
        const QByteArray guarded = optionsOf(c);
        QCOMPARE(textOption(guarded, "validationLevel", "strict"), levelAfter);
        QCOMPARE(textOption(guarded, "validationAction", "error"), actionAfter);
        QVERIFY2(r.out.contains(QStringLiteral("validationLevel %1").arg(levelAfter)),
                 qPrintable(r.out));
        if (refusedBefore)
            QVERIFY2(refused(bad.arg(1)), "the collection's own rule no longer refuses");

        const CliRun removed = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(removed.exitCode == 0, qPrintable(removed.err));
        const QByteArray back = optionsOf(c);
        QCOMPARE(textOption(back, "validationLevel", "strict"), beforeLevel);
        QCOMPARE(textOption(back, "validationAction", "error"), beforeAction);
        if (refusedBefore)
            QVERIFY(refused(bad.arg(2)));
        QString error;
        QVERIFY2(run(pushTo(c, QStringLiteral("B"), 9), &error), qPrintable(error));
    }

    // The case: {year: int} at strict/error. Warn is refused (use error), error alone
    // says the unsplit outlier's updates would be refused and waits, --level strict applies it:
    // the user's rule still refuses, and so does an update to the outlier, as chosen.
    void strictCollectionWaitsForTheUsersChoice()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("sales");
        makeCollection(c, yearRule());
        CliRun r = guard(c, layout(3));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("validationAction error")) &&
                     r.err.contains(QStringLiteral("use error")),
                 qPrintable(r.err));
        r = guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("the 1 document already over the guard would be "
                                               "refused")) &&
                     r.err.contains(QStringLiteral("choose strict")),
                 qPrintable(r.err));
        r = guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error"),
                                             QStringLiteral("--level"), QStringLiteral("strict")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("note: validationLevel strict: updates to the 1 "
                                               "document over the guard are refused")),
                 qPrintable(r.out));
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"Y\", "
                                       "\"year\": \"not-an-int\"}]}")
                            .arg(c)));
        QVERIFY(refused(pushTo(c, QStringLiteral("C"), 1)));
    }

    // Someone added a rule after the guard: --remove shows both and refuses without --force;
    // with it only the guard's part goes, their rule and the collection's own stay.
    void removeKeepsARuleAddedSince()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("posts");
        makeCollection(c, QStringLiteral("{\"title\": {\"$type\": \"string\"}}"),
                       QStringLiteral("moderate"), QStringLiteral("error"));
        CliRun r =
            guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // Another administrator's rule, added over the guarded validator.
        QString error;
        const QString guardedJson = validatorJson(c);
        QVERIFY2(run(QStringLiteral("{\"collMod\": \"%1\", \"validator\": {\"$and\": [%2, "
                                    "{\"author\": {\"$exists\": true}}]}}")
                         .arg(c, guardedJson),
                     &error),
                 qPrintable(error));
        const QByteArray theirs = optionsOf(c);

        r = guard(c, {QStringLiteral("--remove")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("changed since the guard was applied")) &&
                     r.err.contains(QStringLiteral("--force")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("validator now:")) &&
                     r.out.contains(QStringLiteral("without the guard's part:")) &&
                     r.out.contains(QStringLiteral("author")),
                 qPrintable(r.out));
        QVERIFY(optionsOf(c) == theirs);

        r = guard(c, {QStringLiteral("--remove"), QStringLiteral("--force")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString left = validatorJson(c);
        QVERIFY2(!left.contains(QStringLiteral("maxItems")) &&
                     left.contains(QStringLiteral("author")) &&
                     left.contains(QStringLiteral("title")),
                 qPrintable(left));
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"N\", "
                                       "\"title\": \"t\"}]}")
                            .arg(c))); // their rule: no author
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"T\", "
                                       "\"title\": 7, \"author\": \"a\"}]}")
                            .arg(c))); // the collection's own rule
        QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"OK\", "
                                    "\"title\": \"t\", \"author\": \"a\", \"comments\": [1, 2, 3, "
                                    "4, 5]}]}")
                         .arg(c),
                     &error),
                 qPrintable(error)); // the guard's maxItems is gone
    }

    // A collection that listed no validation options: after --remove, MongoDB lists its
    // defaults explicitly (collMod cannot unset them), and remove says so.
    void removeSaysWhatCollModCannotUnset()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("plain");
        makeCollection(c, {});
        const QByteArray original = optionsOf(c);
        QCOMPARE(textOption(original, "validationLevel", ""), QString());
        CliRun r = guard(c, layout(3));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(textOption(optionsOf(c), "validationLevel", ""), QStringLiteral("strict"));
        QVERIFY2(r.out.contains(QStringLiteral("collMod can set an option but not unset it")) &&
                     r.out.contains(QStringLiteral("validationLevel \"strict\"")) &&
                     r.out.contains(QStringLiteral("not byte for byte")),
                 qPrintable(r.out));
    }

    // A guard an older build applied (its record has no version and no `applied`; level
    // moderate): this build removes it and gives back what it replaced.
    void removesAGuardAnOlderBuildApplied()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("legacy");
        makeCollection(c, QStringLiteral("{\"title\": {\"$type\": \"string\"}}"));
        const QByteArray original = optionsOf(c);
        // What version 1 wrote: the record, then the collMod (moderate, the asked action).
        QString error;
        QVERIFY2(run(QStringLiteral(
                         "{\"insert\": \"outlier_explorer_guards\", \"documents\": [{\"_id\": "
                         "\"%1\", \"previous\": {\"validator\": {\"title\": {\"$type\": "
                         "\"string\"}}, \"validationLevel\": \"strict\", \"validationAction\": "
                         "\"error\"}, \"field\": \"comments\", \"keep\": {\"$numberLong\": "
                         "\"3\"}, \"appliedAt\": {\"$date\": \"2026-10-01T00:00:00Z\"}}]}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        QVERIFY2(run(QStringLiteral(
                         "{\"collMod\": \"%1\", \"validator\": {\"$and\": [{\"title\": "
                         "{\"$type\": \"string\"}}, {\"$jsonSchema\": {\"bsonType\": \"object\", "
                         "\"title\": \"outlier-explorer guard\", \"properties\": {\"comments\": "
                         "{\"maxItems\": 3}}}}]}, \"validationLevel\": \"moderate\", "
                         "\"validationAction\": \"warn\"}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        const CliRun r = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("validationLevel moderate -> strict")),
                 qPrintable(r.out));
        QVERIFY2(optionsOf(c) == original, "the options differ from the original bytes");
    }

    // A split, guarded with --action error, rolled back: the rollback lifts the guard first (the
    // restored arrays are longer than KEEP), says so, and leaves the options as they were.
    void rollbackLiftsTheGuard()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("threads");
        makeCollection(c, QStringLiteral("{\"title\": {\"$type\": \"string\"}}"));
        const QByteArray original = optionsOf(c);
        const auto before = fixtures::readCollection(m_uri, m_db, c);
        const QStringList target = targetOf(c);
        CliRun r = split(c);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents over the guard now: 0")),
                 qPrintable(r.out)); // the split brought C under it
        QVERIFY(optionsOf(c) != original);

        r = runCli(QStringList{QStringLiteral("rollback")} + target +
                   QStringList{QStringLiteral("--field"), QStringLiteral("comments"),
                               QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QStringLiteral("note: the guard on threads was removed")),
                 qPrintable(r.out));
        QVERIFY(fixtures::readCollection(m_uri, m_db, c) == before);
        QVERIFY2(optionsOf(c) == original, "the options differ from the original bytes");
    }

    // A collection without a validator: the guard alone; removed, no rule is left.
    void withoutAValidatorNoneIsLeft()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("feeds");
        makeCollection(c, {});
        CliRun r =
            guard(c, layout(2) + QStringList{QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("existing validator: none")) &&
                     !r.out.contains(QStringLiteral("$and")) &&
                     r.out.contains(QStringLiteral("documents over the guard now: 2")),
                 qPrintable(r.out));
        QString error;
        QVERIFY(refused(pushTo(c, QStringLiteral("B"), 2)));
        r = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(run(pushTo(c, QStringLiteral("B"), 20), &error), qPrintable(error));
        bson_t options;
        const QByteArray bytes = optionsOf(c);
        QVERIFY(bson_init_static(&options,
                                 reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                 std::size_t(bytes.size())));
        bson_iter_t it;
        if (bson_iter_init_find(&it, &options, "validator")) {
            std::uint32_t length = 0;
            const std::uint8_t *data = nullptr;
            bson_iter_document(&it, &length, &data);
            QCOMPARE(length, std::uint32_t(5)); // {}
        }
    }

    // FerretDB has no validators: one line, exit 2, nothing written.
    void ferretDbSaysSoInOneLine()
    {
        if (!m_server.isFerretDb())
            QSKIP("FerretDB only");
        const QString c = QStringLiteral("posts");
        makeCollection(c, {});
        for (const QStringList &rule :
             {layout(2), QStringList{QStringLiteral("--type-of"), QStringLiteral("title"),
                                     QStringLiteral("--types"), QStringLiteral("string")}}) {
            const CliRun r = guard(c, rule);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(QStringLiteral("no $jsonSchema validators")) &&
                         r.err.trimmed().count(QLatin1Char('\n')) == 0,
                     qPrintable(r.err));
        }
        QVERIFY(
            !fixtures::collectionExists(m_uri, m_db, QStringLiteral("outlier_explorer_guards")));
        QString error;
        QVERIFY2(run(pushTo(c, QStringLiteral("B"), 5), &error), qPrintable(error));
    }
};

QTEST_MAIN(TestGuard)
#include "tst_guard.moc"
