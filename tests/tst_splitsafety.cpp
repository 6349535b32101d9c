#include "BsonFixtures.h"
#include "CliRunner.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <bson/bson.h>

// The offline split as a hostile user meets it: names that would escape the output folder,
// corrupt documents, dumps that were split already, failures half-way, schema drift, a split
// that moves nothing, options that disagree with the journal. Nothing may be lost, written
// half, or reported as a success it is not. End to end through the CLI.
class TestSplitSafety : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_books; // the demo book sales dump

    QString path(const QString &name) const { return m_dir.filePath(name); }
    static QByteArray contents(const QString &file)
    {
        QFile f(file);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    // Every entry of `dir`, hidden ones (staged temporary files) included.
    static QStringList entriesOf(const QString &dir)
    {
        return QDir(dir).entryList(QDir::Files | QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
    }
    static CliRun split(const QString &dump, const QString &outDir, const QStringList &extra,
                        qint64 fileSizeLimit = 0)
    {
        return runCli(QStringList{QStringLiteral("split"), QStringLiteral("--dump"), dump,
                                  QStringLiteral("--out-dir"), outDir} +
                          extra,
                      120000, fileSizeLimit);
    }
    static CliRun offline(const QString &action, const QString &dump, const QStringList &extra)
    {
        return runCli(QStringList{action, QStringLiteral("--dump"), dump} + extra);
    }
    static void expectOneLineError(const CliRun &r)
    {
        QVERIFY2(r.err.count(QLatin1Char('\n')) == 1 &&
                     r.err.startsWith(QStringLiteral("outlier-explorer-cli: ")),
                 qPrintable(r.err));
    }
    // A dump of documents {_id: i, a: <array of `length` ints>, title: "t<i>"}.
    static QList<QByteArray> arrayDocuments(int count, int length)
    {
        QList<QByteArray> docs;
        for (int i = 0; i < count; ++i)
            docs << fixtures::documentWithArray(i, length, "a");
        return docs;
    }
    // `doc` with the type byte of array element `index` of the top-level array "a" (of int32)
    // replaced by 0x77, which no BSON type has.
    static QByteArray withUnknownElementType(QByteArray doc, int index)
    {
        const QByteArray key = QByteArray::number(index);
        const QByteArray marker = QByteArray(1, '\x10') + key + QByteArray(1, '\0');
        const qsizetype at = doc.indexOf(marker, doc.indexOf(QByteArray("a\0", 2)));
        Q_ASSERT(at > 0);
        doc[at] = '\x77';
        return doc;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const CliRun r = runCli({QStringLiteral("demo-data"), QStringLiteral("--out"),
                                 path(QStringLiteral("demo")), QStringLiteral("--dataset"),
                                 QStringLiteral("book_sales")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        m_books = path(QStringLiteral("demo/book_sales.bson"));
        QVERIFY(QFile::exists(m_books));
    }

    // Issue 10.1: a collection name is a file name offline; none may leave --out-dir.
    void collectionNamesStayInTheirFolder_data()
    {
        QTest::addColumn<QString>("overflow");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("parent folders") << QStringLiteral("../../demo/book_sales") << "'/'";
        QTest::newRow("absolute path") << path(QStringLiteral("elsewhere")) << "'/'";
        QTest::newRow("sub folder") << QStringLiteral("sub/name") << "'/'";
        QTest::newRow("dollar") << QStringLiteral("price$") << "'$'";
        QTest::newRow("dot dot") << QStringLiteral("..") << "--overflow-collection";
        QTest::newRow("system") << QStringLiteral("system.pages") << "system";
        QTest::newRow("too long") << QString(201, QLatin1Char('x')) << "200";
        QTest::newRow("control character") << QStringLiteral("a\x01z") << "--overflow-collection";
    }
    void collectionNamesStayInTheirFolder()
    {
        QFETCH(QString, overflow);
        QFETCH(QString, mentions);
        const QByteArray before = contents(m_books);
        const QString out = path(QStringLiteral("names/out"));
        const CliRun r = split(m_books, out,
                               {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                                QStringLiteral("--keep"), QStringLiteral("50"),
                                QStringLiteral("--overflow-collection"), overflow});
        QCOMPARE(r.exitCode, 2);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("--overflow-collection")) &&
                     r.err.contains(mentions),
                 qPrintable(r.err));
        QCOMPARE(contents(m_books), before); // the input is untouched
        QVERIFY(entriesOf(out).isEmpty());
        QVERIFY(entriesOf(path(QStringLiteral("names"))).isEmpty() ||
                entriesOf(path(QStringLiteral("names"))) == QStringList{QStringLiteral("out")});
        QVERIFY(!QFile::exists(path(QStringLiteral("elsewhere.bson"))));
    }

    // The dump's own name is the collection name: it is checked as well.
    void dumpNamedLikeABadCollectionIsRefused()
    {
        const QString dump = path(QStringLiteral("bad$name.bson"));
        QVERIFY(QFile::copy(m_books, dump));
        const CliRun r = split(dump, path(QStringLiteral("badname")),
                               {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                                QStringLiteral("--keep"), QStringLiteral("50")});
        QCOMPARE(r.exitCode, 2);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("'$'")), qPrintable(r.err));
        QVERIFY(entriesOf(path(QStringLiteral("badname"))).isEmpty());
    }

    // Issue 10.2: a document analyze rejects is never split into "valid" output.
    void corruptDocumentStopsTheSplit_data()
    {
        QTest::addColumn<int>("element");
        QTest::newRow("in the part kept") << 2;
        QTest::newRow("in the part moved") << 17;
    }
    void corruptDocumentStopsTheSplit()
    {
        QFETCH(int, element);
        QList<QByteArray> docs = arrayDocuments(4, 20);
        docs[2] = withUnknownElementType(docs[2], element);
        qint64 offset = 0;
        for (int i = 0; i < 2; ++i)
            offset += docs[i].size();
        const QString dump = path(QStringLiteral("corrupt.bson"));
        QVERIFY(fixtures::writeFile(dump, fixtures::concat(docs)));
        const QString out = path(QStringLiteral("corrupt-out"));
        const CliRun r = split(dump, out,
                               {QStringLiteral("--field"), QStringLiteral("a"),
                                QStringLiteral("--keep"), QStringLiteral("5")});
        QCOMPARE(r.exitCode, 4);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("document #2")), qPrintable(r.err));
        // The offset named lies inside the corrupt document.
        const QRegularExpression at(QStringLiteral("byte offset (\\d+)"));
        const auto m = at.match(r.err);
        QVERIFY2(m.hasMatch(), qPrintable(r.err));
        QVERIFY(m.captured(1).toLongLong() >= offset &&
                m.captured(1).toLongLong() < offset + docs[2].size());
        QVERIFY(entriesOf(out).isEmpty());
        // analyze says the same of the same file.
        const CliRun a = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                                 QStringLiteral("--out"), path(QStringLiteral("corrupt-reports"))});
        QCOMPARE(a.exitCode, 4);
        QVERIFY2(a.err.contains(QStringLiteral("document #2")), qPrintable(a.err));
    }

    // A dump made by concatenating two (mongodump never repeats an _id) would split into pages
    // that verify and rollback cannot tell apart: refused, naming both documents.
    void repeatedIdIsRefused()
    {
        QList<QByteArray> docs = arrayDocuments(5, 20);
        docs << fixtures::documentWithArray(1, 3, "a"); // _id 1 again, short: it would not split
        const QString dump = path(QStringLiteral("repeated.bson"));
        QVERIFY(fixtures::writeFile(dump, fixtures::concat(docs)));
        const QString out = path(QStringLiteral("repeated-out"));
        const CliRun r = split(dump, out,
                               {QStringLiteral("--field"), QStringLiteral("a"),
                                QStringLiteral("--keep"), QStringLiteral("5")});
        QCOMPARE(r.exitCode, 4);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("document #5: repeats the _id of document #1")),
                 qPrintable(r.err));
        QVERIFY(entriesOf(out).isEmpty());
    }

    // Issue 10.3: splitting the output of a split would lose its pages on restore.
    void alreadySplitDumpIsRefused_data()
    {
        QTest::addColumn<QString>("keep");
        QTest::newRow("same keep") << QStringLiteral("50");
        QTest::newRow("another keep") << QStringLiteral("10");
    }
    void alreadySplitDumpIsRefused()
    {
        QFETCH(QString, keep);
        const QString first = path(QStringLiteral("first-split"));
        if (!QFile::exists(first + QStringLiteral("/book_sales.bson"))) {
            const CliRun r =
                split(m_books, first,
                      {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                       QStringLiteral("--keep"), QStringLiteral("50")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        const QString out = path(QStringLiteral("second-split-") + keep);
        const CliRun r = split(first + QStringLiteral("/book_sales.bson"), out,
                               {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                                QStringLiteral("--keep"), keep});
        QCOMPARE(r.exitCode, 2);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("already have has_extras: true")) &&
                     r.err.contains(QStringLiteral("keep 50")),
                 qPrintable(r.err));
        QVERIFY(entriesOf(out).isEmpty());
    }

    // Issue 10.4 and 10.6: a write that fails half-way leaves no file, not even a temporary
    // one, and replaces none that was there; the error names the file and the system's reason.
    void failureHalfWayLeavesNothing()
    {
        const QString out = path(QStringLiteral("half"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(fixtures::writeFile(out + QStringLiteral("/book_sales.bson"), "earlier"));
        QVERIFY(contents(m_books).size() > 64 * 1024);
        const CliRun r = split(m_books, out,
                               {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                                QStringLiteral("--keep"), QStringLiteral("50")},
                               64 * 1024);
        QCOMPARE(r.exitCode, 3);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(out) && r.err.contains(QStringLiteral("File too large")),
                 qPrintable(r.err));
        QCOMPARE(entriesOf(out), QStringList{QStringLiteral("book_sales.bson")});
        QCOMPARE(contents(out + QStringLiteral("/book_sales.bson")), QByteArray("earlier"));
    }
    void reportsAreAllOrNothing()
    {
        const QString out = path(QStringLiteral("reports-full"));
        const CliRun r = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), m_books,
                                 QStringLiteral("--out"), out},
                                120000, 1024);
        QCOMPARE(r.exitCode, 3);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral(".csv")) &&
                     r.err.contains(QStringLiteral("File too large")) &&
                     r.err.contains(QStringLiteral("no report written")),
                 qPrintable(r.err));
        QVERIFY2(entriesOf(out).isEmpty(), qPrintable(entriesOf(out).join(u' ')));
    }

    // Issue 10.7: the field is a string or a document in a few documents (schema drift).
    void schemaDriftIsSkippedAndCounted()
    {
        QList<QByteArray> docs = arrayDocuments(4, 20);
        docs << fixtures::bson(R"({"_id": 4, "a": "not yet migrated"})")
             << fixtures::bson(R"({"_id": 5, "a": {"0": 1, "1": 2}})");
        const QString dump = path(QStringLiteral("drift/drift.bson"));
        QVERIFY(QDir().mkpath(path(QStringLiteral("drift"))));
        QVERIFY(fixtures::writeFile(dump, fixtures::concat(docs)));
        const QString out = path(QStringLiteral("drift-out"));
        const QStringList args{QStringLiteral("--field"), QStringLiteral("a"),
                               QStringLiteral("--keep"), QStringLiteral("5")};
        CliRun r = split(dump, out, args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents to split: 4")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("skipped: 2 document(s) left as they are; first: "
                                               "document 4 (_id 4): field 'a' is string")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("document 5 (_id 5): field 'a' is object")),
                 qPrintable(r.out));
        const QByteArray primaries = contents(out + QStringLiteral("/drift.bson"));
        QVERIFY(primaries.endsWith(QByteArray(docs[4] + docs[5]))); // byte-identical, in place
        r = offline(QStringLiteral("verify"), out + QStringLiteral("/drift.bson"),
                    {QStringLiteral("--field"), QStringLiteral("a")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("mismatches: 0")),
                 qPrintable(r.out + r.err));
        r = offline(QStringLiteral("rollback"), out + QStringLiteral("/drift.bson"),
                    {QStringLiteral("--field"), QStringLiteral("a"), QStringLiteral("--out-dir"),
                     path(QStringLiteral("drift-back"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(contents(path(QStringLiteral("drift-back/drift.bson"))), contents(dump));

        // --strict refuses, and writes nothing.
        const QString strictOut = path(QStringLiteral("drift-strict"));
        r = split(dump, strictOut, args + QStringList{QStringLiteral("--strict")});
        QCOMPARE(r.exitCode, 4);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("--strict")) &&
                     r.err.contains(QStringLiteral("_id 4")),
                 qPrintable(r.err));
        QVERIFY(entriesOf(strictOut).isEmpty());
    }
    // Drift is a few documents; a field that is an array nowhere is the wrong field.
    void fieldThatIsNeverAnArrayIsRefused()
    {
        const QString out = path(QStringLiteral("title-out"));
        const CliRun r = split(m_books, out,
                               {QStringLiteral("--field"), QStringLiteral("title"),
                                QStringLiteral("--keep"), QStringLiteral("5")});
        QCOMPARE(r.exitCode, 4);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("not an array in any")), qPrintable(r.err));
        QVERIFY(entriesOf(out).isEmpty());
    }

    // Issue 10.8: a field no document has is a usage error, as it is live.
    void missingFieldIsAUsageError_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("split") << QStringList{};
        QTest::newRow("dry run") << QStringList{QStringLiteral("--dry-run")};
    }
    void missingFieldIsAUsageError()
    {
        QFETCH(QStringList, extra);
        const QString out = path(QStringLiteral("nosuchfield-") + QString::number(extra.size()));
        const CliRun r = split(m_books, out,
                               QStringList{QStringLiteral("--field"), QStringLiteral("nosuchfield"),
                                           QStringLiteral("--keep"), QStringLiteral("5")} +
                                   extra);
        QCOMPARE(r.exitCode, 2);
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("no document has a field 'nosuchfield'")),
                 qPrintable(r.err));
        QVERIFY(entriesOf(out).isEmpty());
    }

    // Issue 10.9: a split that moves nothing is a valid, verifiable, reversible result.
    void splitThatMovesNothingIsVerifiable()
    {
        const QString out = path(QStringLiteral("nothing"));
        CliRun r = split(m_books, out,
                         {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                          QStringLiteral("--keep"), QStringLiteral("1000000")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents to split: 0")), qPrintable(r.out));
        QVERIFY(QFile::exists(out + QStringLiteral("/book_sales_overflow.bson")));
        QCOMPARE(QFileInfo(out + QStringLiteral("/book_sales_overflow.bson")).size(), 0);
        QCOMPARE(contents(out + QStringLiteral("/book_sales.bson")), contents(m_books));
        r = offline(QStringLiteral("verify"), out + QStringLiteral("/book_sales.bson"),
                    {QStringLiteral("--field"), QStringLiteral("customers_purchased")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("checked: 0")),
                 qPrintable(r.out + r.err));
        r = offline(QStringLiteral("rollback"), out + QStringLiteral("/book_sales.bson"),
                    {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                     QStringLiteral("--out-dir"), path(QStringLiteral("nothing-back"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(contents(path(QStringLiteral("nothing-back/book_sales.bson"))), contents(m_books));
    }

    // Issue 10.11: verify and rollback follow the journal; an option that contradicts it is
    // refused instead of silently overridden.
    void optionsThatContradictTheJournalAreRefused_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("verify --keep 10")
            << "verify" << QStringList{QStringLiteral("--keep"), QStringLiteral("10")} << 2;
        QTest::newRow("verify --keep 50")
            << "verify" << QStringList{QStringLiteral("--keep"), QStringLiteral("50")} << 0;
        QTest::newRow("verify, keep from the journal") << "verify" << QStringList{} << 0;
        QTest::newRow("rollback --page-size 7")
            << "rollback"
            << QStringList{QStringLiteral("--page-size"), QStringLiteral("7"),
                           QStringLiteral("--out-dir"), path(QStringLiteral("contra-back"))}
            << 2;
        QTest::newRow("verify --flag-field other")
            << "verify" << QStringList{QStringLiteral("--flag-field"), QStringLiteral("other")}
            << 2;
    }
    void optionsThatContradictTheJournalAreRefused()
    {
        QFETCH(QString, action);
        QFETCH(QStringList, extra);
        QFETCH(int, exitCode);
        const QString out = path(QStringLiteral("contra"));
        if (!QFile::exists(out + QStringLiteral("/book_sales.bson"))) {
            const CliRun r =
                split(m_books, out,
                      {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                       QStringLiteral("--keep"), QStringLiteral("50")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        const CliRun r = offline(
            action, out + QStringLiteral("/book_sales.bson"),
            QStringList{QStringLiteral("--field"), QStringLiteral("customers_purchased")} + extra);
        QCOMPARE(r.exitCode, exitCode);
        if (exitCode == 0) {
            QVERIFY2(r.out.contains(QStringLiteral("keep 50")) &&
                         r.out.contains(QStringLiteral("mismatches: 0")),
                     qPrintable(r.out));
            return;
        }
        expectOneLineError(r);
        QVERIFY2(r.err.contains(QStringLiteral("does not match the split in the journal")) &&
                     r.err.contains(extra.first()),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(path(QStringLiteral("contra-back"))));
    }

    // Issue 24.7: the Safety page promises a unique index on {link, page} in the overflow
    // collection; offline, mongorestore creates it from <overflow>.metadata.json. The names
    // are the configured ones, in that order, escaped as JSON (a quote and a backslash here).
    void overflowMetadataDeclaresTheUniqueIndex()
    {
        const QString out = path(QStringLiteral("metadata"));
        const QString link = QStringLiteral("z\"link\\"), page = QStringLiteral("a_page");
        const CliRun r =
            split(m_books, out,
                  {QStringLiteral("--field"), QStringLiteral("customers_purchased"),
                   QStringLiteral("--keep"), QStringLiteral("50"),
                   QStringLiteral("--overflow-collection"), QStringLiteral("book_pages"),
                   QStringLiteral("--link-field"), link, QStringLiteral("--page-field"), page});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QByteArray json = contents(out + QStringLiteral("/book_pages.metadata.json"));
        QJsonParseError parseError;
        const QJsonObject metadata = QJsonDocument::fromJson(json, &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError,
                 qPrintable(parseError.errorString()));
        QCOMPARE(metadata.value(QStringLiteral("collectionName")).toString(),
                 QStringLiteral("book_pages"));
        const QJsonArray indexes = metadata.value(QStringLiteral("indexes")).toArray();
        QCOMPARE(indexes.size(), 2);
        QCOMPARE(indexes[0].toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("_id_"));
        const QJsonObject index = indexes[1].toObject();
        QVERIFY(index.value(QStringLiteral("unique")).toBool());
        QCOMPARE(index.value(QStringLiteral("name")).toString(),
                 link + QStringLiteral("_1_") + page + QStringLiteral("_1"));
        // The key's order matters (QJsonObject sorts keys): read with libbson, which keeps it.
        bson_error_t error;
        bson_t *doc = bson_new_from_json(reinterpret_cast<const std::uint8_t *>(json.constData()),
                                         json.size(), &error);
        QVERIFY2(doc, error.message);
        bson_iter_t it, key;
        QStringList fields;
        if (bson_iter_init(&it, doc) && bson_iter_find_descendant(&it, "indexes.1.key", &key) &&
            bson_iter_recurse(&key, &it))
            while (bson_iter_next(&it)) {
                QCOMPARE(bson_iter_as_int64(&it), 1);
                fields << QString::fromUtf8(bson_iter_key(&it));
            }
        bson_destroy(doc);
        QCOMPARE(fields, QStringList({link, page}));
    }
};

QTEST_GUILESS_MAIN(TestSplitSafety)
#include "tst_splitsafety.moc"
