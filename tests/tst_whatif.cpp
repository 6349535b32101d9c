// `outlier-explorer-cli whatif` against the real server: the table and whatif.csv for each
// size, with the write path timed (slot counter on mongod, legacy and a warning on FerretDB); the
// scratch database gone afterwards, also after Ctrl-C, SIGTERM and SIGHUP; a named scratch database
// that holds anything (even one empty collection with an index), or one of the server's own (admin,
// config, local), refused before anything is written; one an earlier run of the tool left behind
// taken and dropped; whatif.csv never written through a link, and a failed write of it an error.
#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "LiveDocuments.h"
#include "LiveServer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <mongoc/mongoc.h>

#include <csignal>

namespace {

QStringList databases(const QString &uri)
{
    QStringList out;
    mongoc_uri_t *u = mongoc_uri_new(uri.toUtf8().constData());
    mongoc_client_t *client = mongoc_client_new_from_uri(u);
    bson_error_t error;
    if (char **names = mongoc_client_get_database_names_with_opts(client, nullptr, &error)) {
        for (char **n = names; *n; ++n)
            out << QString::fromUtf8(*n);
        bson_strfreev(names);
    }
    mongoc_client_destroy(client);
    mongoc_uri_destroy(u);
    return out;
}

// A cell of whatif.csv by data row and column name.
QString cell(const QList<QStringList> &csv, int row, const QString &column)
{
    const int c = int(csv.value(0).indexOf(column));
    return c < 0 ? QString() : csv.value(row + 1).value(c);
}

// Runs a command on `database`; false when the server refused it.
bool command(const QString &uri, const QString &database, const char *json)
{
    mongoc_client_t *client = mongoc_client_new(uri.toUtf8().constData());
    bson_error_t error;
    bson_t *cmd = bson_new_from_json(reinterpret_cast<const std::uint8_t *>(json), -1, &error);
    const bool ok = client && cmd &&
                    mongoc_client_command_simple(client, database.toUtf8().constData(), cmd,
                                                 nullptr, nullptr, &error);
    if (!ok)
        qWarning("%s: %s", json, error.message);
    bson_destroy(cmd);
    mongoc_client_destroy(client);
    return ok;
}

QStringList collections(const QString &uri, const QString &database)
{
    QStringList out;
    mongoc_client_t *client = mongoc_client_new(uri.toUtf8().constData());
    mongoc_database_t *db = mongoc_client_get_database(client, database.toUtf8().constData());
    bson_error_t error;
    if (char **names = mongoc_database_get_collection_names_with_opts(db, nullptr, &error)) {
        for (char **n = names; *n; ++n)
            out << QString::fromUtf8(*n);
        bson_strfreev(names);
    }
    mongoc_database_destroy(db);
    mongoc_client_destroy(client);
    return out;
}

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString scratchOf(const QString &err)
{
    static const QRegularExpression re(QStringLiteral("scratch database (\\S+) dropped"));
    return re.match(err).captured(1);
}

} // namespace

class TestWhatIf : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_uri;

private slots:
    void initTestCase()
    {
        mongoc_init();
        QVERIFY(m_dir.isValid());
        m_uri = fixtures::liveUri();
        QVERIFY2(!m_uri.isEmpty(), "no live server fixture (OE_LIVE_DIR/plain/env)");
    }

    void cleanupTestCase() { mongoc_cleanup(); }

    void tableAndCsvThenTheScratchDatabaseIsGone()
    {
        const QString out = m_dir.filePath(QStringLiteral("run"));
        const CliRun r = runCli(
            {QStringLiteral("whatif"), QStringLiteral("--uri"), m_uri, QStringLiteral("--sizes"),
             QStringLiteral("10,300"), QStringLiteral("--ops"), QStringLiteral("12"),
             QStringLiteral("--keep"), QStringLiteral("5"), QStringLiteral("--page-size"),
             QStringLiteral("50"), QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3); // the header and one row per size
        QVERIFY(lines[1].trimmed().startsWith(QStringLiteral("10 ")));
        QVERIFY(lines[2].trimmed().startsWith(QStringLiteral("300 ")));
        const auto csv = csvtest::readFile(out + QStringLiteral("/whatif.csv"));
        QCOMPARE(csv.size(), qsizetype(3));
        QCOMPARE(cell(csv, 0, QStringLiteral("elements")), QStringLiteral("10"));
        QCOMPARE(cell(csv, 1, QStringLiteral("elements")), QStringLiteral("300"));
        for (int row = 0; row < 2; ++row)
            for (const char *column : {"unbounded_ms_mean", "split_ms_mean", "speedup"})
                QVERIFY2(cell(csv, row, QString::fromLatin1(column)).toDouble() > 0, column);
        // The write path timed: the slot counter on mongod; on FerretDB, which refuses update
        // pipelines, the legacy one, and a warning says so.
        const bool ferret = fixtures::LiveServer::open().isFerretDb();
        for (int row = 0; row < 2; ++row)
            QCOMPARE(cell(csv, row, QStringLiteral("write_path")),
                     ferret ? QStringLiteral("legacy") : QStringLiteral("slot-counter"));
        QCOMPARE(r.err.contains(QStringLiteral("warning: the server refused an update pipeline")),
                 ferret);
        // 300 elements of 100 bytes and the document around them.
        QVERIFY(cell(csv, 1, QStringLiteral("document_bytes")).toLongLong() > 30000);
        const QString scratch = scratchOf(r.err);
        QVERIFY2(scratch.startsWith(QStringLiteral("oe_whatif_")), qPrintable(r.err));
        QVERIFY(!databases(m_uri).contains(scratch));
    }

    void aScratchDatabaseWithDataIsRefused()
    {
        const QString dump = m_dir.filePath(QStringLiteral("busy.bson"));
        QVERIFY(fixtures::writeFile(dump, fixtures::bson("{\"_id\": 1, \"keep\": \"me\"}")));
        CliRun r = runCli({QStringLiteral("import"), QStringLiteral("--uri"), m_uri,
                           QStringLiteral("--db"), QStringLiteral("oe_whatif_busy"),
                           QStringLiteral("--collection"), QStringLiteral("precious"),
                           QStringLiteral("--dump"), dump, QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli({QStringLiteral("whatif"), QStringLiteral("--uri"), m_uri,
                    QStringLiteral("--scratch-db"), QStringLiteral("oe_whatif_busy"),
                    QStringLiteral("--sizes"), QStringLiteral("10"), QStringLiteral("--ops"),
                    QStringLiteral("2")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("oe_whatif_busy holds data (precious)")),
                 qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one line
        const auto kept = fixtures::readCollection(m_uri, QStringLiteral("oe_whatif_busy"),
                                                   QStringLiteral("precious"));
        QCOMPARE(kept.size(), std::size_t(1));
    }

    // Ctrl-C (or SIGTERM, or SIGHUP: the terminal closed) while the second size is measured:
    // exit 130, and the scratch database is gone.
    void interruptDropsTheScratchDatabase_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }
    void interruptDropsTheScratchDatabase()
    {
        QFETCH(int, signal);
        QProcess p;
        p.start(qEnvironmentVariable("OE_CLI"),
                {QStringLiteral("whatif"), QStringLiteral("--uri"), m_uri,
                 QStringLiteral("--sizes"), QStringLiteral("10,2000"), QStringLiteral("--ops"),
                 QStringLiteral("100000")});
        QVERIFY(p.waitForStarted());
        // The database exists once the first size is loaded.
        QString scratch;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QString &name : databases(m_uri))
                    if (name.startsWith(QStringLiteral("oe_whatif_%1_").arg(p.processId())))
                        scratch = name;
                return !scratch.isEmpty();
            }(),
            60000);
        ::kill(pid_t(p.processId()), signal);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("interrupted")), qPrintable(err));
        QCOMPARE(scratchOf(err), scratch);
        QVERIFY(!databases(m_uri).contains(scratch));
    }

    // Issue 24.5: the server's own databases are never taken (they were dropped).
    void systemDatabasesAreRefused_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name : {"admin", "config", "local", "Admin"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void systemDatabasesAreRefused()
    {
        QFETCH(QString, name);
        const QStringList before = databases(m_uri);
        const CliRun r =
            runCli({QStringLiteral("whatif"), QStringLiteral("--uri"), m_uri,
                    QStringLiteral("--scratch-db"), name, QStringLiteral("--sizes"),
                    QStringLiteral("10"), QStringLiteral("--ops"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY2(r.err.contains(QStringLiteral("--scratch-db %1 is one of the server's own "
                                               "databases")
                                    .arg(name)),
                 qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("dropped")));
        // Every database is still there, but the scratch databases of what-if runs in other
        // processes (tst_whatifdialog shares the server), which come and go with their runs.
        static const QRegularExpression scratch(QStringLiteral("^oe_whatif_[0-9]+_[0-9]+$"));
        const QStringList after = databases(m_uri);
        for (const QString &db : before)
            QVERIFY2(after.contains(db) || scratch.match(db).hasMatch(), qPrintable(db));
    }

    // A database holding only an empty collection with an index holds something: refused, and
    // left as it was (the old check counted documents, found none, and dropped it).
    void anEmptyCollectionWithAnIndexIsNeverDropped()
    {
        const QString db = QStringLiteral("oe_whatif_indexed");
        QVERIFY(command(m_uri, db, "{\"create\": \"empty\"}"));
        QVERIFY(command(m_uri, db,
                        "{\"createIndexes\": \"empty\", \"indexes\": [{\"key\": {\"k\": 1}, "
                        "\"name\": \"k_1\"}]}"));
        const CliRun r =
            runCli({QStringLiteral("whatif"), QStringLiteral("--uri"), m_uri,
                    QStringLiteral("--scratch-db"), db, QStringLiteral("--sizes"),
                    QStringLiteral("10"), QStringLiteral("--ops"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("oe_whatif_indexed holds data (empty)")),
                 qPrintable(r.err));
        QCOMPARE(collections(m_uri, db), QStringList{QStringLiteral("empty")});
    }

    // A database an earlier run made (its marker collection) and left behind (kill -9): taken,
    // and dropped at the end.
    void aLeftoverOfThisToolIsTakenAndDropped()
    {
        const QString db = QStringLiteral("oe_whatif_leftover");
        QVERIFY(command(m_uri, db,
                        "{\"insert\": \"oe_whatif_scratch\", \"documents\": [{\"_id\": "
                        "\"outlier-explorer whatif scratch database\"}]}"));
        QVERIFY(
            command(m_uri, db, "{\"insert\": \"unbounded_10\", \"documents\": [{\"_id\": 1}]}"));
        const CliRun r =
            runCli({QStringLiteral("whatif"), QStringLiteral("--uri"), m_uri,
                    QStringLiteral("--scratch-db"), db, QStringLiteral("--sizes"),
                    QStringLiteral("10"), QStringLiteral("--ops"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(scratchOf(r.err), db);
        QVERIFY(!databases(m_uri).contains(db));
    }

    // Issue 24.1: whatif.csv is replaced, never written through a link at its path.
    void aLinkAtWhatifCsvIsReplaced()
    {
        const QString out = m_dir.filePath(QStringLiteral("linked"));
        const QString sentinel = m_dir.filePath(QStringLiteral("sentinel.txt"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(fixtures::writeFile(sentinel, "precious\n"));
        QVERIFY(QFile::link(sentinel, out + QStringLiteral("/whatif.csv")));
        const CliRun r =
            runCli({QStringLiteral("whatif"), QStringLiteral("--uri"), m_uri,
                    QStringLiteral("--sizes"), QStringLiteral("10"), QStringLiteral("--ops"),
                    QStringLiteral("2"), QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(contents(sentinel), QByteArray("precious\n"));
        const QFileInfo csv(out + QStringLiteral("/whatif.csv"));
        QVERIFY(!csv.isSymLink() && csv.isFile());
        QVERIFY(contents(csv.filePath()).startsWith("elements,"));
    }

    // Issue 24.2: a write that fails (here `ulimit -f`, as a full disk would) is an error naming
    // the file, never "wrote"; no temporary file left, and the scratch database still dropped.
    void aFailedCsvWriteIsAnError()
    {
        const QString out = m_dir.filePath(QStringLiteral("limited"));
        const CliRun r = runCliUnderUlimit({QStringLiteral("whatif"), QStringLiteral("--uri"),
                                            m_uri, QStringLiteral("--sizes"), QStringLiteral("10"),
                                            QStringLiteral("--ops"), QStringLiteral("2"),
                                            QStringLiteral("--out"), out},
                                           32);
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(
                     QStringLiteral("outlier-explorer-cli: %1/whatif.csv: cannot write").arg(out)),
                 qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("wrote")));
        QVERIFY(QDir(out).entryList(QDir::Files | QDir::Hidden).isEmpty());
        const QString scratch = scratchOf(r.err);
        QVERIFY(!scratch.isEmpty() && !databases(m_uri).contains(scratch));
    }
};

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
