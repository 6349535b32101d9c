// `outlier-explorer-cli whatif` against the real FerretDB server: the table and whatif.csv for
// each size; the scratch database gone afterwards, also after Ctrl-C; a named scratch database
// that holds data refused before anything is written.
#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "LiveDocuments.h"

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

    // Ctrl-C while the second size is measured: exit 130, and the scratch database is gone.
    void interruptDropsTheScratchDatabase()
    {
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
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("interrupted")), qPrintable(err));
        QCOMPARE(scratchOf(err), scratch);
        QVERIFY(!databases(m_uri).contains(scratch));
    }
};

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
