// The rename remedy (issue 55: the remedy added as one folder and one registry line) against
// the real servers: a top-level field renamed in every document that holds it, its value kept
// byte for byte; a document holding the new name already listed and left; verified; rolled back
// byte for byte (the old name back in its place); the application's writes kept; killed with -9
// and resumed; bad names refused in one line. On mongod and FerretDB.
#include "CliRunner.h"
#include "LiveBench.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "RewriteKills.h"

#include <QtTest>

using fixtures::keysOf;

namespace {

const QString kDb = QStringLiteral("oe_rename");

// Document i's userName: a string, an int, a double, a sub-document, by turns (a rename keeps
// each as it is, type and bytes).
QString nameValue(int i)
{
    switch (i % 4) {
    case 0:
        return QStringLiteral("\"user-%1\"").arg(i);
    case 1:
        return QString::number(i);
    case 2:
        return QStringLiteral("%1.5").arg(i);
    default:
        return QStringLiteral("{\"first\": \"Ann\", \"n\": %1}").arg(i);
    }
}

} // namespace

class TestRename : public QObject, public LiveBench
{
    Q_OBJECT

    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), kDb,
                QStringLiteral("--collection"), collection};
    }
    QStringList rename(const QString &collection) const
    {
        return QStringList{QStringLiteral("rewrite")} + target(collection) +
               QStringList{QStringLiteral("--path"), QStringLiteral("userName"),
                           QStringLiteral("--rename-to"), QStringLiteral("user_name")};
    }
    // `count` people {_id: i, age, userName, tail}, one holding the new name already, one
    // holding neither.
    void makePeople(const QString &collection, int count) const
    {
        run(QStringLiteral("{\"drop\": \"%1\"}").arg(collection));
        run(QStringLiteral("{\"drop\": \"%1_outlier_rewrites\"}").arg(collection));
        QStringList docs;
        for (int i = 1; i <= count; ++i)
            docs << QStringLiteral("{\"_id\": %1, \"age\": %2, \"userName\": %3, \"tail\": "
                                   "[1, 2]}")
                        .arg(i)
                        .arg(20 + i % 50)
                        .arg(nameValue(i));
        docs << QStringLiteral("{\"_id\": \"taken\", \"userName\": \"a\", \"user_name\": \"b\"}");
        docs << QStringLiteral("{\"_id\": \"plain\", \"name\": \"neither\"}");
        for (qsizetype at = 0; at < docs.size(); at += 500) {
            QString error;
            QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                             .arg(collection, docs.mid(at, 500).join(QLatin1Char(','))),
                         &error),
                     qPrintable(error));
        }
    }
    static QByteArray byId(const std::map<QByteArray, QByteArray> &docs, int id)
    {
        for (const auto &[raw, doc] : docs)
            if (fixtures::numberOf(doc, QStringLiteral("_id")) == id)
                return doc;
        return {};
    }

public:
    TestRename() : LiveBench(kDb) {}

private slots:
    void initTestCase()
    {
        const QString missing = openServer();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // Previewed (nothing written), applied (each value under its new name, byte for byte, the
    // conflicting document left), verified, refused a second time, rolled back to the same
    // bytes: the old name back in its place.
    void roundTrip()
    {
        const QString c = QStringLiteral("people");
        const int people = m_server.isMongod() ? 400 : 120;
        makePeople(c, people);
        const auto before = read(c);
        const QStringList args = rename(c);
        CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents holding the field userName: %1; to "
                                               "rewrite: %2; already so: 0; cannot be "
                                               "rewritten: 1")
                                    .arg(people + 1)
                                    .arg(people)) &&
                     r.out.contains(QStringLiteral("the document holds a field user_name "
                                                   "already")) &&
                     r.out.contains(QStringLiteral("each document's userName becomes "
                                                   "user_name")) &&
                     r.out.contains(QStringLiteral("nothing written")),
                 qPrintable(r.out));
        QVERIFY(read(c) == before);

        r = runCli(args + QStringList{QStringLiteral("--yes"), QStringLiteral("--batch"),
                                      QStringLiteral("7")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("rewritten: %1; already so: 0; cannot be "
                                                   "rewritten: 1")
                                        .arg(people)),
                 qPrintable(r.out + r.err));
        const auto after = read(c);
        for (int i : {1, 2, 3, 4, people}) {
            const QByteArray now = byId(after, i);
            const QByteArray was = byId(before, i);
            QCOMPARE(keysOf(now),
                     (QStringList{QStringLiteral("_id"), QStringLiteral("age"),
                                  QStringLiteral("tail"), QStringLiteral("user_name")}));
            // The value's bytes, type byte included, as they were under the old name.
            QCOMPARE(fixtures::fieldOf(now, QStringLiteral("user_name")),
                     fixtures::fieldOf(was, QStringLiteral("userName")));
        }
        for (const auto &[id, doc] : after)
            if (!keysOf(doc).contains(QStringLiteral("age"))) // taken and plain: as they were
                QCOMPARE(doc, before.at(id));

        r = runCli(args + QStringList{QStringLiteral("--verify")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("%1 entries (the run recorded %1); holding the "
                                                   "rewrite: %1;")
                                        .arg(people)) &&
                     r.out.contains(QStringLiteral("verified")),
                 qPrintable(r.out + r.err));
        r = runCli(args + QStringList{QStringLiteral("--yes")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("applied already")), qPrintable(r.err));

        r = runCli(args + QStringList{QStringLiteral("--rollback"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("restored: %1; the application's value kept: "
                                                   "0")
                                        .arg(people)),
                 qPrintable(r.out + r.err));
        QVERIFY2(read(c) == before, "the collection differs from the one before the rename");
    }

    // The application's writes after the apply: a person whose new field it set keeps the
    // application's value under the new name; one whose age it changed gets userName back where
    // it stood with the new age; one it deleted stays gone.
    void applicationsWritesKept()
    {
        const QString c = QStringLiteral("edited");
        makePeople(c, 30);
        const auto before = read(c);
        const QStringList args = rename(c);
        CliRun r = runCli(args + QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 30;")),
                 qPrintable(r.out + r.err));
        QString error;
        QVERIFY2(run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": 2}, "
                                    "\"u\": {\"$set\": {\"user_name\": \"renamed-by-app\"}}}, "
                                    "{\"q\": {\"_id\": 3}, \"u\": {\"$set\": {\"age\": 99}}}]}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        QVERIFY(run(QStringLiteral("{\"delete\": \"%1\", \"deletes\": [{\"q\": {\"_id\": 5}, "
                                   "\"limit\": 1}]}")
                        .arg(c)));
        r = runCli(args + QStringList{QStringLiteral("--rollback"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("restored: 28; the application's value kept: "
                                                   "1; deleted meanwhile: 1")),
                 qPrintable(r.out + r.err));
        const auto after = read(c);
        int same = 0;
        for (const auto &[id, doc] : after) {
            const std::int64_t n = fixtures::numberOf(doc, QStringLiteral("_id"));
            if (n == 2) {
                QVERIFY(keysOf(doc).contains(QStringLiteral("user_name")));
                QVERIFY(!keysOf(doc).contains(QStringLiteral("userName")));
            } else if (n == 3) {
                QCOMPARE(keysOf(doc), keysOf(before.at(id)));
                QCOMPARE(fixtures::numberOf(doc, QStringLiteral("age")), 99);
            } else {
                same += doc == before.at(id);
            }
        }
        QCOMPARE(same, int(after.size()) - 2);
        QCOMPARE(after.size(), before.size() - 1);
    }

    // Killed with -9 at random moments, applying (and, on mongod, rolling back): each run
    // resumes what the last left, and the collection ends byte for byte as before.
    void killedAndResumed()
    {
        const bool mongod = m_server.isMongod();
        const int count = mongod ? 300 : 80;
        const QString c = QStringLiteral("killed");
        makePeople(c, count);
        const auto before = read(c);
        const QString failure = fixtures::rewriteSurvivesKills(rename(c), count, mongod);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY2(read(c) == before, "the collection differs from the one before the rename");
    }

    // A value of the deprecated type undefined (which the server refuses to compare with $eq)
    // renames and comes back like any other, guarded by its type.
    void undefinedValueRenames()
    {
        if (m_server.isFerretDb())
            QSKIP("FerretDB does not store BSON undefined");
        const QString c = QStringLiteral("legacy");
        run(QStringLiteral("{\"drop\": \"%1\"}").arg(c));
        run(QStringLiteral("{\"drop\": \"%1_outlier_rewrites\"}").arg(c));
        QString error;
        QVERIFY2(
            run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": 1, "
                               "\"userName\": {\"$undefined\": true}, \"age\": 3}, {\"_id\": 2, "
                               "\"userName\": \"b\"}]}")
                    .arg(c),
                &error),
            qPrintable(error));
        const auto before = read(c);
        const QStringList args = rename(c);
        CliRun r = runCli(args + QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 2;")),
                 qPrintable(r.out + r.err));
        const QByteArray one = byId(read(c), 1);
        QCOMPARE(fixtures::fieldOf(one, QStringLiteral("user_name")),
                 fixtures::fieldOf(byId(before, 1), QStringLiteral("userName")));
        r = runCli(args + QStringList{QStringLiteral("--verify")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        r = runCli(args + QStringList{QStringLiteral("--rollback"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("restored: 2;")),
                 qPrintable(r.out + r.err));
        QVERIFY(read(c) == before);
    }

    // Bad names: one line each, nothing written.
    void badInputSaysWhere()
    {
        const QString c = QStringLiteral("people");
        makePeople(c, 5);
        const struct
        {
            QStringList args;
            QString says;
        } cases[] = {
            {{QStringLiteral("--path"), QStringLiteral("userName"), QStringLiteral("--rename-to"),
              QStringLiteral("a.b")},
             QStringLiteral("the new name 'a.b': it must be a plain name")},
            {{QStringLiteral("--path"), QStringLiteral("userName"), QStringLiteral("--rename-to"),
              QStringLiteral("$set")},
             QStringLiteral("the new name '$set': it must be a plain name")},
            {{QStringLiteral("--path"), QStringLiteral("userName"), QStringLiteral("--rename-to"),
              QStringLiteral("_id")},
             QStringLiteral("the new name '_id' is _id or the field's own")},
            {{QStringLiteral("--path"), QStringLiteral("userName"), QStringLiteral("--rename-to"),
              QStringLiteral("userName")},
             QStringLiteral("the new name 'userName' is _id or the field's own")},
            {{QStringLiteral("--path"), QStringLiteral("profile.name"),
              QStringLiteral("--rename-to"), QStringLiteral("x")},
             QStringLiteral("field path 'profile.name': a rename names a top-level field")},
        };
        const auto before = read(c);
        for (const auto &bad : cases) {
            const CliRun r = runCli(QStringList{QStringLiteral("rewrite")} + target(c) + bad.args);
            QVERIFY2(r.exitCode == 2 && r.err.contains(bad.says) &&
                         r.err.trimmed().count(QLatin1Char('\n')) == 0,
                     qPrintable(r.err));
        }
        QVERIFY(read(c) == before);
    }
};

QTEST_GUILESS_MAIN(TestRename)
#include "tst_rename.moc"
