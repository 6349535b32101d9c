// The schema outliers of shape on mongod (issue 37): a collection imported from a dump built
// to hold every kind is analysed client-side, by one cursor and by `_id` ranges on two
// cursors, and lists the dump's flags, row for row (the same documents, the same _ids); the
// same collection without the outliers lists none; a server-side measurement, which returns
// sizes and array lengths only, says in one line that the shape was not measured and lists
// nothing rather than a partial shape. Each flag's query, run on the server, finds its documents.
#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "LiveServer.h"
#include "ShapeDocuments.h"
#include "VersionDocuments.h"

#include "mongo/CollectionBrowser.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

class TestShapeLive : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_uri;
    const QString kDatabase = QStringLiteral("oe_shapelive");

    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), kDatabase,
                QStringLiteral("--collection"), collection};
    }
    QString dump(const QString &name, bool withOutliers)
    {
        const QString path = m_dir.filePath(name + QStringLiteral(".bson"));
        if (!fixtures::writeFile(path, fixtures::concat(fixtures::shapeDocuments(withOutliers))))
            return {};
        return path;
    }
    // analyze into a folder of its own; its shape_outliers.csv, or a message naming the failure.
    QByteArray shapeOutliers(const QStringList &source, const QString &name,
                             QString *summary = nullptr, QString *out = nullptr)
    {
        const QString dir = m_dir.filePath(name);
        const CliRun r = runCli(QStringList{QStringLiteral("analyze"), QStringLiteral("--out"), dir,
                                            QStringLiteral("--no-history")} +
                                source);
        if (r.exitCode != 0)
            return "analyze failed: " + r.err.toUtf8();
        if (out)
            *out = r.out;
        QFile summaryFile(QDir(dir).filePath(QStringLiteral("summary.csv")));
        if (summary && summaryFile.open(QIODevice::ReadOnly))
            *summary = QString::fromUtf8(summaryFile.readAll());
        QFile f(QDir(dir).filePath(QStringLiteral("shape_outliers.csv")));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("no shape_outliers.csv");
    }

private slots:
    void initTestCase()
    {
        const fixtures::LiveServer server = fixtures::LiveServer::open();
        QVERIFY2(server.isValid(), qPrintable(server.missing()));
        m_uri = server.uri();
        QVERIFY(m_dir.isValid());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8()); // scan states
        for (const auto &[name, outliers] : {std::pair{QStringLiteral("outliers"), true},
                                             std::pair{QStringLiteral("plain"), false}}) {
            const CliRun r = runCli(QStringList{QStringLiteral("import")} + target(name) +
                                    QStringList{QStringLiteral("--dump"), dump(name, outliers),
                                                QStringLiteral("--drop")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
    }

    void theCollectionListsTheDumpsFlags()
    {
        const QByteArray fromDump = shapeOutliers(
            {QStringLiteral("--dump"), m_dir.filePath(QStringLiteral("outliers.bson"))},
            QStringLiteral("dump"));
        for (const char *kind : {"rare_field,legacyFlag", "mixed_types,amount,string",
                                 "mixed_element_types,codes,string", "keys_as_data,daily",
                                 "big_scalar,payload", "many_fields", "deep_nesting"})
            QVERIFY2(fromDump.contains(kind), fromDump.constData());
        QVERIFY2(fromDump.contains("rare_field,legacyFlag,,0.003,3,1000,"), fromDump.constData());
        QVERIFY(fromDump.contains("big_scalar,payload,,1,2,2,2 of 2 values over 256.0 KiB; the "
                                  "largest 293.0 KiB,43 42,43 42"));
        QString out;
        const QByteArray live =
            shapeOutliers(target(QStringLiteral("outliers")) +
                              QStringList{QStringLiteral("--full"), QStringLiteral("--measure"),
                                          QStringLiteral("client")},
                          QStringLiteral("live"), nullptr, &out);
        QCOMPARE(live, fromDump);
        QVERIFY2(out.contains(QStringLiteral("shape: 4 rare fields, 1 mixed types, 1 mixed "
                                             "element types, 1 keys used as data, 1 big scalars, "
                                             "1 many-field outliers, 1 deep-nesting outliers")),
                 qPrintable(out));
        const QByteArray ranges =
            shapeOutliers(target(QStringLiteral("outliers")) +
                              QStringList{QStringLiteral("--full"), QStringLiteral("--measure"),
                                          QStringLiteral("client"), QStringLiteral("--parallel"),
                                          QStringLiteral("2")},
                          QStringLiteral("ranges"));
        QCOMPARE(ranges, fromDump);
    }

    // shape_outliers.csv's query column, run on the server: a rare field's and a mixed type's
    // find exactly the documents counted (one value per document here); the others find their
    // example documents, the _ids listed beside them.
    void eachFlagsQueryFindsItsDocuments()
    {
        QVERIFY(!shapeOutliers(
                     {QStringLiteral("--dump"), m_dir.filePath(QStringLiteral("outliers.bson"))},
                     QStringLiteral("queries"))
                     .startsWith("analyze failed"));
        QList<QStringList> rows =
            csvtest::readFile(m_dir.filePath(QStringLiteral("queries/shape_outliers.csv")));
        QCOMPARE(rows.value(0).value(9), QStringLiteral("query"));
        rows.removeFirst();
        QCOMPARE(rows.size(), 10);
        oe::ConnectionSettings settings;
        settings.uri = m_uri;
        for (const QStringList &row : rows) {
            const QString kind = row.value(0);
            oe::DocumentQuery query;
            query.filter = row.value(9);
            query.limit = oe::DocumentQuery::kMaxLimit;
            const oe::BrowsedPage page =
                oe::CollectionBrowser::find(settings, kDatabase, QStringLiteral("outliers"), query);
            QVERIFY2(!page.error.isError(), qPrintable(page.error.toString()));
            QVERIFY(!page.hasMore);
            QStringList found;
            for (const oe::BrowsedDocument &d : page.documents)
                found << d.id;
            found.sort();
            const QString what = row.join(QLatin1Char(',')) + QStringLiteral(" found ") +
                                 found.join(QLatin1Char(' '));
            if (kind == QLatin1String("rare_field") || kind.startsWith(QLatin1String("mixed"))) {
                QVERIFY2(query.filter.contains(QLatin1String(row.value(1).toUtf8())),
                         qPrintable(what));
                QVERIFY2(qsizetype(row.value(4).toULongLong()) == found.size(), qPrintable(what));
                for (const QString &id : row.value(7).split(QLatin1Char(' ')))
                    QVERIFY2(found.contains(id), qPrintable(what));
            } else {
                QVERIFY2(query.filter.startsWith(QLatin1String("{ \"_id\" : { \"$in\" : [")),
                         qPrintable(what));
                QStringList examples = row.value(7).split(QLatin1Char(' '));
                examples.sort();
                QCOMPARE(found, examples);
            }
        }
    }

    // Schema versions (issue 39) on the server: the collection of three versions (and unversioned
    // documents) lists the dump's flags, by one cursor and by ranges on two; each flag within a
    // version has a query naming the version that finds exactly its documents on mongod.
    void versionFlagsHoldOnTheServer()
    {
        const QString path = m_dir.filePath(QStringLiteral("versions.bson"));
        // And one whose version is a value no version has (an object): one of the (none), which
        // the query of a flag in (none) must find too.
        QList<QByteArray> docs = fixtures::versionedDocuments(400);
        docs << fixtures::bson(R"({"_id": 2000, "schema_version": {"draft": true}, "name": "user",
                                   "address": "x", "legacy_note": "imported 2000"})");
        QVERIFY(fixtures::writeFile(path, fixtures::concat(docs)));
        const CliRun imported =
            runCli(QStringList{QStringLiteral("import")} + target(QStringLiteral("versions")) +
                   QStringList{QStringLiteral("--dump"), path, QStringLiteral("--drop")});
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        QString out;
        const QByteArray fromDump = shapeOutliers({QStringLiteral("--dump"), path},
                                                  QStringLiteral("versions-dump"), nullptr, &out);
        QVERIFY2(out.contains(QStringLiteral("versions by schema_version (found): 1 50.0 % (500), "
                                             "2 9.2 % (92), 3 0.8 % (8), (none) 40.1 % (401)")),
                 qPrintable(out));
        for (const QStringList &extra :
             {QStringList{QStringLiteral("--full"), QStringLiteral("--measure"),
                          QStringLiteral("client")},
              QStringList{QStringLiteral("--full"), QStringLiteral("--measure"),
                          QStringLiteral("client"), QStringLiteral("--parallel"),
                          QStringLiteral("2")}})
            QCOMPARE(shapeOutliers(target(QStringLiteral("versions")) + extra,
                                   QStringLiteral("versions-live%1").arg(extra.size())),
                     fromDump);
        QList<QStringList> rows = csvtest::parse(fromDump);
        const qsizetype version = rows.first().indexOf(QStringLiteral("version"));
        rows.removeFirst();
        oe::ConnectionSettings settings;
        settings.uri = m_uri;
        int withinVersions = 0;
        for (const QStringList &row : rows) {
            if (row.value(version).isEmpty())
                continue;
            ++withinVersions;
            oe::DocumentQuery query;
            query.filter = row.value(9);
            query.limit = oe::DocumentQuery::kMaxLimit;
            const oe::BrowsedPage page =
                oe::CollectionBrowser::find(settings, kDatabase, QStringLiteral("versions"), query);
            QVERIFY2(!page.error.isError(), qPrintable(page.error.toString()));
            QStringList found;
            for (const oe::BrowsedDocument &d : page.documents)
                found << d.id;
            found.sort();
            const QString what = row.join(QLatin1Char(',')) + QStringLiteral(" found ") +
                                 found.join(QLatin1Char(' '));
            QVERIFY2(query.filter.startsWith(QStringLiteral("{ \"schema_version\" : ")),
                     qPrintable(what));
            QVERIFY2(qsizetype(row.value(4).toULongLong()) == found.size(), qPrintable(what));
        }
        // The address a string in version 2; the note in (none), in 4 documents with the draft.
        QCOMPARE(withinVersions, 2);
    }

    // --anatomy on the collection reads the outlier documents by _id: the same anatomy.csv as
    // the dump's, where they are read by position.
    void theAnatomyOfTheCollectionIsTheDumps()
    {
        QByteArray files[2];
        const QStringList sources[2] = {
            {QStringLiteral("--dump"), m_dir.filePath(QStringLiteral("outliers.bson"))},
            target(QStringLiteral("outliers")) + QStringList{QStringLiteral("--full"),
                                                             QStringLiteral("--measure"),
                                                             QStringLiteral("client")}};
        for (int i = 0; i < 2; ++i) {
            const QString name = QStringLiteral("anatomy%1").arg(i);
            QVERIFY(!shapeOutliers(
                         sources[i] + QStringList{QStringLiteral("--anatomy"), QStringLiteral("5")},
                         name)
                         .startsWith("analyze failed"));
            QFile f(m_dir.filePath(name + QStringLiteral("/anatomy.csv")));
            QVERIFY(f.open(QIODevice::ReadOnly));
            files[i] = f.readAll();
        }
        QVERIFY2(files[0].count('\n') >= 3, files[0].constData());
        QVERIFY2(!files[0].contains("not found"), files[0].constData());
        QCOMPARE(files[1], files[0]);
    }

    void theSameCollectionWithoutOutliersListsNone()
    {
        QString summary;
        const QByteArray none =
            shapeOutliers(target(QStringLiteral("plain")) + QStringList{QStringLiteral("--full"),
                                                                        QStringLiteral("--measure"),
                                                                        QStringLiteral("client")},
                          QStringLiteral("plain"), &summary);
        QCOMPARE(none, QByteArray("kind,path,type,share,count,total,detail,example_ids,"
                                  "example_doc_indexes,query,version,explained_by,fields\r\n"));
        QVERIFY2(summary.contains(QStringLiteral("\nshape_flags,0\r\n")), qPrintable(summary));
    }

    void aServerSideMeasurementSaysTheShapeWasNotMeasured()
    {
        QString summary, out;
        const QByteArray server =
            shapeOutliers(target(QStringLiteral("outliers")) +
                              QStringList{QStringLiteral("--full"), QStringLiteral("--measure"),
                                          QStringLiteral("server")},
                          QStringLiteral("server"), &summary, &out);
        QCOMPARE(server.count('\n'), 1); // the header: no partial shape
        QVERIFY2(summary.contains(QStringLiteral("shape_note,shape not measured: the server "
                                                 "measured sizes and array lengths only")),
                 qPrintable(summary));
        QVERIFY2(out.contains(QStringLiteral("shape not measured: the server")), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestShapeLive)
#include "tst_shapelive.moc"
