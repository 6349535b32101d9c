// The attribute remedy (issue 39) against the real servers: a catalogue's sparse top-level
// fields, named by the analysis as one family (shape_outliers.csv's sparse_fields row), move
// into one array of {k, v} in each document's order, indexed {attrs.k: 1, attrs.v: 1};
// verified; rolled back byte for byte (each field where it stood, the index dropped, the user's
// own index kept); the application's writes kept either way; killed with -9 and resumed, on
// mongod and FerretDB.
#include "CatalogDocuments.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "LiveBench.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "RewriteKills.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using fixtures::keysOf;

namespace {

const QString kDb = QStringLiteral("oe_attributes");

} // namespace

class TestAttributes : public QObject, public LiveBench
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), kDb,
                QStringLiteral("--collection"), collection};
    }
    QStringList rewrite(const QString &collection, const QStringList &fields) const
    {
        return QStringList{QStringLiteral("rewrite")} + target(collection) +
               QStringList{QStringLiteral("--attributes"), QStringLiteral("--fields"),
                           fields.join(QLatin1Char(','))};
    }
    // The catalogue (CatalogDocuments), one document holding the array's name already and
    // one holding none of the fields.
    void makeCatalogue(const QString &collection, int count) const
    {
        run(QStringLiteral("{\"drop\": \"%1\"}").arg(collection));
        run(QStringLiteral("{\"drop\": \"%1_outlier_rewrites\"}").arg(collection));
        QStringList docs = fixtures::catalogueJson(count);
        // One that holds the array's name already: listed, left as it is.
        docs << QStringLiteral("{\"_id\": \"taken\", \"attr_001\": 1.5, \"attrs\": []}");
        docs << QStringLiteral("{\"_id\": \"plain\", \"name\": \"none of them\"}");
        for (qsizetype at = 0; at < docs.size(); at += 500) {
            QString error;
            QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                             .arg(collection, docs.mid(at, 500).join(QLatin1Char(','))),
                         &error),
                     qPrintable(error));
        }
    }
    QByteArray docWithId(const QString &collection, int id) const
    {
        for (const auto &[raw, doc] : read(collection))
            if (fixtures::numberOf(doc, QStringLiteral("_id")) == id)
                return doc;
        return {};
    }
    // The collection's index names (listIndexes), sorted.
    QStringList indexes(const QString &collection) const
    {
        QByteArray reply;
        QString error;
        fixtures::command(m_uri, kDb,
                          QStringLiteral("{\"listIndexes\": \"%1\"}").arg(collection).toUtf8(),
                          &error, &reply);
        QStringList names; // reply: {cursor: {firstBatch: [{name}, ...]}} as BSON
        const QByteArray cursor = fixtures::fieldOf(reply, QStringLiteral("cursor")).mid(1);
        for (const QByteArray &index : fixtures::elementsOf(cursor, QStringLiteral("firstBatch")))
            names << QString::fromUtf8(
                fixtures::fieldOf(index.mid(1), QStringLiteral("name")).mid(5).chopped(1));
        names.sort();
        return names;
    }
    // The sparse family the analysis names: shape_outliers.csv's sparse_fields row's fields.
    QStringList analysedFamily(const QString &collection)
    {
        const QString dir = m_dir.filePath(collection + QStringLiteral("-analysis"));
        const CliRun r =
            runCli(QStringList{QStringLiteral("analyze"), QStringLiteral("--out"), dir,
                               QStringLiteral("--no-history"), QStringLiteral("--full")} +
                   target(collection));
        if (r.exitCode != 0)
            return {QStringLiteral("analyze failed: ") + r.err};
        const QList<QStringList> rows =
            csvtest::readFile(QDir(dir).filePath(QStringLiteral("shape_outliers.csv")));
        if (rows.isEmpty())
            return {QStringLiteral("no shape_outliers.csv")};
        const qsizetype kind = rows.first().indexOf(QStringLiteral("kind"));
        const qsizetype fields = rows.first().indexOf(QStringLiteral("fields"));
        for (const QStringList &row : rows)
            if (row.value(kind) == QLatin1String("sparse_fields")) {
                QStringList names;
                for (const QJsonValue &v :
                     QJsonDocument::fromJson(row.value(fields).toUtf8()).array())
                    names << v.toString();
                return names;
            }
        return {QStringLiteral("no sparse_fields row")};
    }

public:
    TestAttributes() : LiveBench(kDb) {}

private slots:
    void initTestCase()
    {
        const QString missing = openServer();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // The analysis names the family; the remedy previews it (nothing written), moves each
    // document's fields into attrs in its order and makes the index, verifies, refuses a second
    // apply, and rolls back to the same bytes with the index gone.
    void familyRoundTrip()
    {
        const QString c = QStringLiteral("catalogue");
        makeCatalogue(c, m_server.isMongod() ? 600 : 200);
        QStringList family = analysedFamily(c);
        QCOMPARE(family.size(), fixtures::kCatalogueFields);
        QVERIFY(family.contains(QStringLiteral("напряжение")));
        family.sort();
        QStringList expected = fixtures::catalogueFields();
        expected.sort();
        QCOMPARE(family, expected);

        const auto before = read(c);
        const QStringList args = rewrite(c, analysedFamily(c));
        CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const int products = m_server.isMongod() ? 600 : 200;
        QVERIFY2(r.out.contains(QStringLiteral("documents holding any of the 100 fields: %1; to "
                                               "rewrite: %2; already so: 0; cannot be "
                                               "rewritten: 1")
                                    .arg(products + 1)
                                    .arg(products)) &&
                     r.out.contains(QStringLiteral("the document holds a field attrs already")) &&
                     r.out.contains(QStringLiteral("index to create once the fields are moved: "
                                                   "{\"attrs.k\": 1, \"attrs.v\": 1}")) &&
                     r.out.contains(QStringLiteral("nothing written")),
                 qPrintable(r.out));
        QVERIFY(read(c) == before);

        r = runCli(args + QStringList{QStringLiteral("--yes"), QStringLiteral("--batch"),
                                      QStringLiteral("7")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("rewritten: %1; already so: 0; cannot be "
                                                   "rewritten: 1")
                                        .arg(products)) &&
                     r.out.contains(QStringLiteral("index attrs.k_1_attrs.v_1 created")),
                 qPrintable(r.out + r.err));
        // Product 1: its six fields in its order, now values of attrs, after the rest.
        const QByteArray one = docWithId(c, 1);
        QCOMPARE(keysOf(one), (QStringList{QStringLiteral("_id"), QStringLiteral("name"),
                                           QStringLiteral("price"), QStringLiteral("tail"),
                                           QStringLiteral("attrs")}));
        const QList<QByteArray> attrs = fixtures::elementsOf(one, QStringLiteral("attrs"));
        QCOMPARE(attrs.size(), 6);
        const QStringList names = fixtures::catalogueFieldsOf(1);
        for (int j = 0; j < 6; ++j) {
            const QByteArray element = attrs[j].mid(1); // the sub-document's bytes
            QCOMPARE(keysOf(element), (QStringList{QStringLiteral("k"), QStringLiteral("v")}));
            QCOMPARE(fixtures::fieldOf(element, QStringLiteral("k")).mid(5).chopped(1),
                     names[j].toUtf8());
        }
        QVERIFY2(indexes(c).contains(QStringLiteral("attrs.k_1_attrs.v_1")),
                 qPrintable(indexes(c).join(QLatin1Char(' '))));

        r = runCli(args + QStringList{QStringLiteral("--verify")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("%1 entries (the run recorded %1); holding the "
                                                   "rewrite: %1;")
                                        .arg(products)),
                 qPrintable(r.out + r.err));
        r = runCli(args + QStringList{QStringLiteral("--yes")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("applied already")), qPrintable(r.err));

        r = runCli(args + QStringList{QStringLiteral("--rollback"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("restored: %1; the application's value kept: "
                                                   "0")
                                        .arg(products)) &&
                     r.out.contains(QStringLiteral("index attrs.k_1_attrs.v_1 the rewrite made: "
                                                   "dropped")),
                 qPrintable(r.out + r.err));
        QVERIFY2(read(c) == before, "the collection differs from the one before the rewrite");
        QCOMPARE(indexes(c), QStringList{QStringLiteral("_id_")});
    }

    // The application's writes after the apply are kept by the rollback: a product whose attrs
    // it edited keeps them; one whose price it changed, and one it gave a new field, get their
    // fields back where they stood with the application's values; one it deleted stays gone.
    // The user's own index on the same keys is used, and kept.
    void applicationsWritesKept()
    {
        const QString c = QStringLiteral("edited");
        makeCatalogue(c, 40);
        QVERIFY(run(QStringLiteral("{\"createIndexes\": \"%1\", \"indexes\": [{\"key\": "
                                   "{\"attrs.k\": 1, \"attrs.v\": 1}, \"name\": \"mine\"}]}")
                        .arg(c)));
        const auto before = read(c);
        const QStringList args = rewrite(c, fixtures::catalogueFields());
        CliRun r = runCli(args + QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 40;")) &&
                     r.out.contains(QStringLiteral("an index on {\"attrs.k\": 1, \"attrs.v\": 1} "
                                                   "is there already: kept")),
                 qPrintable(r.out + r.err));
        QString error;
        QVERIFY2(run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": 2}, "
                                    "\"u\": {\"$push\": {\"attrs\": {\"k\": \"colour\", \"v\": "
                                    "\"red\"}}}}, {\"q\": {\"_id\": 3}, \"u\": {\"$set\": "
                                    "{\"price\": 99}}}, {\"q\": {\"_id\": 4}, \"u\": {\"$set\": "
                                    "{\"promo\": true}}}]}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        QVERIFY(run(QStringLiteral("{\"delete\": \"%1\", \"deletes\": [{\"q\": {\"_id\": 5}, "
                                   "\"limit\": 1}]}")
                        .arg(c)));
        r = runCli(args + QStringList{QStringLiteral("--rollback"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("restored: 38; the application's value kept: "
                                                   "1; deleted meanwhile: 1")),
                 qPrintable(r.out + r.err));
        const auto after = read(c);
        int same = 0;
        for (const auto &[id, doc] : after) {
            const std::int64_t n = fixtures::numberOf(doc, QStringLiteral("_id"));
            const QByteArray old = before.at(id);
            if (n == 2) { // the application's attrs kept
                QVERIFY(keysOf(doc).contains(QStringLiteral("attrs")));
                QCOMPARE(fixtures::elementsOf(doc, QStringLiteral("attrs")).size(), 7);
            } else if (n == 3) { // the fields where they stood, the new price among them
                QCOMPARE(keysOf(doc), keysOf(old));
                QCOMPARE(fixtures::numberOf(doc, QStringLiteral("price")), 99);
            } else if (n == 4) { // the new field last
                QCOMPARE(keysOf(doc), keysOf(old) + QStringList{QStringLiteral("promo")});
            } else {
                same += doc == old;
            }
        }
        QCOMPARE(same, int(after.size()) - 3);
        QVERIFY(after.size() == before.size() - 1);
        QVERIFY(indexes(c).contains(QStringLiteral("mine")));
    }

    // Killed with -9 at random moments, applying (and, on mongod, rolling back): each run
    // resumes what the last left, and the collection ends whole, then byte for byte as before.
    void killedAndResumed()
    {
        const bool mongod = m_server.isMongod();
        const int count = mongod ? 300 : 80;
        const QString c = QStringLiteral("killed");
        makeCatalogue(c, count);
        const auto before = read(c);
        const QStringList args = rewrite(c, fixtures::catalogueFields());
        const QString failure = fixtures::rewriteSurvivesKills(args, count, mongod);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY2(read(c) == before, "the collection differs from the one before the rewrite");
    }

    // Bad input: one line each, nothing written.
    void badInputSaysWhere()
    {
        const QString c = QStringLiteral("catalogue");
        const struct
        {
            QStringList args;
            QString says;
        } cases[] = {
            {{QStringLiteral("--attributes")},
             QStringLiteral("the attribute rewrite needs the fields it moves (--fields)")},
            {{QStringLiteral("--attributes"), QStringLiteral("--fields"),
              QStringLiteral("attr_001,a.b")},
             QStringLiteral("field 'a.b': it must be a plain name")},
            {{QStringLiteral("--attributes"), QStringLiteral("--fields"),
              QStringLiteral("attr_001,_id")},
             QStringLiteral("field '_id': _id and the array 'attrs' cannot be moved into it")},
            {{QStringLiteral("--attributes"), QStringLiteral("--fields"),
              QStringLiteral("attr_001,attr_001")},
             QStringLiteral("field 'attr_001' is named twice")},
            {{QStringLiteral("--attributes"), QStringLiteral("--fields"),
              QStringLiteral("attr_001"), QStringLiteral("--path"), QStringLiteral("$bad")},
             QStringLiteral("field path '$bad': a rewrite cannot name it")},
            {{QStringLiteral("--attributes"), QStringLiteral("--fields"),
              QStringLiteral("attr_001"), QStringLiteral("--path"), QStringLiteral("a.b")},
             QStringLiteral("the attribute array 'a.b': it must be a plain name")},
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

QTEST_GUILESS_MAIN(TestAttributes)
#include "tst_attributes.moc"
