#include "BsonFixtures.h"
#include "CliRunner.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "mongo/ServerProbe.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

// How the CLI fails against a real FerretDB server (the CTest fixtures in tests/live/): always
// one line on stderr, the driver's own messages folded into it and redacted, within the
// timeouts the user chose, and with the exit code that says whose fault it was (2 for a filter
// the server refuses or a name MongoDB does not allow, 3 for the network). And what a live split
// leaves alone: documents whose field is not an array (schema drift), unless --strict.
class TestLiveErrors : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_plain, m_replset, m_auth, m_authPassword;

    static QStringList on(const QString &uri)
    {
        return {QStringLiteral("--uri"),        uri,
                QStringLiteral("--db"),         QStringLiteral("oe_errors"),
                QStringLiteral("--collection"), QStringLiteral("book_sales")};
    }
    QStringList analyze(const QString &uri) const
    {
        return QStringList{QStringLiteral("analyze")} + on(uri) +
               QStringList{QStringLiteral("--out"), m_dir.filePath(QStringLiteral("out")),
                           QStringLiteral("--quiet")};
    }
    QStringList splitDryRun(const QString &uri) const
    {
        return QStringList{QStringLiteral("split")} + on(uri) +
               QStringList{QStringLiteral("--field"),
                           QStringLiteral("customers_purchased"),
                           QStringLiteral("--keep"),
                           QStringLiteral("5"),
                           QStringLiteral("--dry-run"),
                           QStringLiteral("--out-dir"),
                           m_dir.filePath(QStringLiteral("plan"))};
    }
    QStringList command(const QString &name, const QString &uri) const
    {
        if (name == QLatin1String("analyze"))
            return analyze(uri);
        if (name == QLatin1String("split"))
            return splitDryRun(uri);
        return {name, QStringLiteral("--uri"), uri};
    }
    static void expectOneLine(const CliRun &r)
    {
        QVERIFY2(r.err.count(QLatin1Char('\n')) == 1 && r.err.endsWith(QLatin1Char('\n')),
                 qPrintable(r.err));
        QVERIFY2(r.err.startsWith(QStringLiteral("outlier-explorer-cli: ")), qPrintable(r.err));
    }

private slots:
    void initTestCase()
    {
        m_plain = fixtures::liveUri(QStringLiteral("plain"));
        m_replset = fixtures::liveUri(QStringLiteral("replset"));
        m_auth = fixtures::liveUri(QStringLiteral("auth"));
        m_authPassword = fixtures::LiveServer::open(QStringLiteral("auth"))
                             .value(QStringLiteral("OE_TEST_PASSWORD"));
        QVERIFY2(!m_plain.isEmpty() && !m_replset.isEmpty() && !m_auth.isEmpty(),
                 "the live server fixtures did not start (see tests/live)");
        const QString demo = m_dir.filePath(QStringLiteral("demo"));
        QCOMPARE(runCli({QStringLiteral("demo-data"), QStringLiteral("--out"), demo,
                         QStringLiteral("--dataset"), QStringLiteral("book_sales"),
                         QStringLiteral("--docs"), QStringLiteral("200")})
                     .exitCode,
                 0);
        const CliRun r =
            runCli(QStringList{QStringLiteral("import")} + on(m_plain) +
                   QStringList{QStringLiteral("--dump"), demo + QStringLiteral("/book_sales.bson"),
                               QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }

    // The driver logs "Last server removed from topology" when the server is not the replica
    // set the URI names; that belongs in the error line, not on a line of its own.
    void driverMessagesFoldIntoTheOneLineError_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("options");
        QTest::newRow("analyze, wrong set name")
            << QStringLiteral("analyze") << QStringLiteral("replset")
            << QStringLiteral("replicaSet=wrong");
        QTest::newRow("test-connection, standalone as a set")
            << QStringLiteral("test-connection") << QStringLiteral("plain")
            << QStringLiteral("replicaSet=rs0");
        QTest::newRow("list, with a password")
            << QStringLiteral("list") << QStringLiteral("auth") << QStringLiteral("replicaSet=rs0");
        QTest::newRow("split, wrong set name")
            << QStringLiteral("split") << QStringLiteral("replset")
            << QStringLiteral("replicaSet=wrong");
    }
    void driverMessagesFoldIntoTheOneLineError()
    {
        QFETCH(QString, command);
        QFETCH(QString, variant);
        QFETCH(QString, options);
        QString uri = fixtures::liveUri(variant);
        uri.remove(QStringLiteral("replicaSet=rs0"));
        if (!uri.contains(QLatin1Char('?')))
            uri += QLatin1Char('?');
        else if (!uri.endsWith(QLatin1Char('?')) && !uri.endsWith(QLatin1Char('&')))
            uri += QLatin1Char('&');
        uri += options + QStringLiteral("&serverSelectionTimeoutMS=2000");
        const CliRun r = runCli(this->command(command, uri));
        QCOMPARE(r.exitCode, 3);
        expectOneLine(r);
        if (QTest::currentTestFailed())
            return;
        static const QRegularExpression folded(
            QStringLiteral(": No suitable servers found.* \\(driver: Last server removed from "
                           "topology\\)$"));
        QVERIFY2(folded.match(r.err.trimmed()).hasMatch(), qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("mongoc")));
        if (!m_authPassword.isEmpty())
            QVERIFY(!r.err.contains(m_authPassword));
    }

    // With tls=true against a server that does not speak TLS, the handshake waits for the
    // connect timeout: it must end within the server selection timeout the user gave.
    void tlsAgainstAPlainServerEndsWithinTheSelectionTimeout_data()
    {
        QTest::addColumn<QString>("uriOptions");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("option") << QStringLiteral("tls=true")
                                << QStringList{QStringLiteral("--server-selection-timeout-ms"),
                                               QStringLiteral("2000")};
        QTest::newRow("uri") << QStringLiteral("tls=true&serverSelectionTimeoutMS=2000")
                             << QStringList{};
        QTest::newRow("uri wins over option")
            << QStringLiteral("tls=true&serverSelectionTimeoutMS=1500")
            << QStringList{QStringLiteral("--server-selection-timeout-ms"),
                           QStringLiteral("30000")};
    }
    void tlsAgainstAPlainServerEndsWithinTheSelectionTimeout()
    {
        QFETCH(QString, uriOptions);
        QFETCH(QStringList, extra);
        const QString uri = m_plain + QLatin1Char('?') + uriOptions;
        for (const QString &name : {QStringLiteral("test-connection"), QStringLiteral("analyze")}) {
            const CliRun r = runCli(command(name, uri) + extra);
            QCOMPARE(r.exitCode, 3);
            expectOneLine(r);
            if (QTest::currentTestFailed())
                return;
            QVERIFY2(r.ms < 6000, qPrintable(QStringLiteral("%1: %2 ms").arg(name).arg(r.ms)));
        }
    }

    // libbson reads "[1,2]" as the document {"0": 1, "1": 2}, which matches nothing.
    void arrayFilterIsRefused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("analyze") << QStringLiteral("analyze");
        QTest::newRow("split") << QStringLiteral("split");
    }
    void arrayFilterIsRefused()
    {
        QFETCH(QString, command);
        const CliRun r = runCli(this->command(command, m_plain) +
                                QStringList{QStringLiteral("--filter"), QStringLiteral("[1,2]")});
        QCOMPARE(r.exitCode, 2);
        expectOneLine(r);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(r.err.contains(QStringLiteral("--filter")) &&
                     r.err.contains(QStringLiteral("array")),
                 qPrintable(r.err));
    }

    void filterTheServerRejectsIsAUsageError_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("filter");
        // $where runs JavaScript: mongod evaluates it in a find (analyze takes it), FerretDB 1.x
        // refuses it; the split's checks are aggregations, where no server allows it.
        const std::pair<const char *, QString> filters[] = {
            {"$where", QStringLiteral("{\"$where\": \"this.sales > 1\"}")},
            {"unknown operator", QStringLiteral("{\"sales\": {\"$bogus\": 1}}")},
            {"unknown top-level operator", QStringLiteral("{\"$bogus\": 1}")},
            {"unknown expression", QStringLiteral("{\"$expr\": {\"$bogus\": 1}}")},
        };
        for (const QString &command : {QStringLiteral("analyze"), QStringLiteral("split")})
            for (const auto &[name, filter] : filters)
                QTest::addRow("%s, %s", qPrintable(command), name) << command << filter;
        QTest::newRow("analyze --sample, unknown operator")
            << QStringLiteral("analyze --sample") << QStringLiteral("{\"sales\": {\"$bogus\": 1}}");
    }
    void filterTheServerRejectsIsAUsageError()
    {
        QFETCH(QString, command);
        QFETCH(QString, filter);
        QStringList args = this->command(command.section(QLatin1Char(' '), 0, 0), m_plain) +
                           QStringList{QStringLiteral("--filter"), filter};
        if (command.endsWith(QLatin1String("--sample")))
            args << QStringLiteral("--sample") << QStringLiteral("50");
        const CliRun r = runCli(args);
        if (command == QLatin1String("analyze") && filter.contains(QStringLiteral("$where")) &&
            fixtures::LiveServer::open().isMongod()) {
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            return;
        }
        QCOMPARE(r.exitCode, 2);
        expectOneLine(r);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(r.err.contains(QStringLiteral("--filter")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("$bogus")) ||
                     r.err.contains(QStringLiteral("$where")),
                 qPrintable(r.err));
    }

    void namesMongoDbRefusesAreUsageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("analyze, collection with $")
            << QStringList{QStringLiteral("analyze"),
                           QStringLiteral("--uri"),
                           m_plain,
                           QStringLiteral("--db"),
                           QStringLiteral("oe_errors"),
                           QStringLiteral("--collection"),
                           QStringLiteral("a$b"),
                           QStringLiteral("--out"),
                           m_dir.filePath(QStringLiteral("n"))}
            << QStringLiteral("--collection");
        QTest::newRow("analyze, database with a dot")
            << QStringList{QStringLiteral("analyze"),
                           QStringLiteral("--uri"),
                           m_plain,
                           QStringLiteral("--db"),
                           QStringLiteral("oe.errors"),
                           QStringLiteral("--collection"),
                           QStringLiteral("book_sales"),
                           QStringLiteral("--out"),
                           m_dir.filePath(QStringLiteral("n"))}
            << QStringLiteral("--db");
        QTest::newRow("split, overflow with a slash")
            << splitDryRun(m_plain) +
                   QStringList{QStringLiteral("--overflow-collection"), QStringLiteral("../x")}
            << QStringLiteral("--overflow-collection");
        QTest::newRow("split, backup in system")
            << splitDryRun(m_plain) + QStringList{QStringLiteral("--backup-collection"),
                                                  QStringLiteral("system.backup")}
            << QStringLiteral("--backup-collection");
    }
    void namesMongoDbRefusesAreUsageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        expectOneLine(r);
        QVERIFY2(r.err.contains(mentions), qPrintable(r.err));
    }

    // Schema drift: a few documents hold the field as a string; the split leaves them as they
    // are and says so; --strict refuses and writes nothing.
    void liveSplitSkipsSchemaDrift()
    {
        QList<QByteArray> docs;
        for (int i = 0; i < 4; ++i)
            docs << fixtures::documentWithArray(i, 20, "a");
        docs << fixtures::bson(R"({"_id": 4, "a": "not yet migrated"})");
        const QString dump = m_dir.filePath(QStringLiteral("drift/drift.bson"));
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("drift"))));
        QVERIFY(fixtures::writeFile(dump, fixtures::concat(docs)));
        const QStringList ns{QStringLiteral("--uri"),        m_plain,
                             QStringLiteral("--db"),         QStringLiteral("oe_errors"),
                             QStringLiteral("--collection"), QStringLiteral("drift")};
        const QStringList split =
            QStringList{QStringLiteral("split")} + ns +
            QStringList{QStringLiteral("--field"), QStringLiteral("a"), QStringLiteral("--keep"),
                        QStringLiteral("5"), QStringLiteral("--yes")};
        const auto import = [&] {
            const CliRun r =
                runCli(QStringList{QStringLiteral("import")} + ns +
                       QStringList{QStringLiteral("--dump"), dump, QStringLiteral("--drop")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        };

        import();
        CliRun r = runCli(split + QStringList{QStringLiteral("--strict")});
        QCOMPARE(r.exitCode, 4);
        expectOneLine(r);
        QVERIFY2(r.err.contains(QStringLiteral("not an array in 1 document(s)")) &&
                     r.err.contains(QStringLiteral("--strict")),
                 qPrintable(r.err));
        QVERIFY(fixtures::readCollection(m_plain, QStringLiteral("oe_errors"),
                                         QStringLiteral("drift_overflow"))
                    .empty());

        r = runCli(split);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("skipped: field 'a' is not an array in 1 "
                                               "document(s)")),
                 qPrintable(r.out));
        const auto after =
            fixtures::readCollection(m_plain, QStringLiteral("oe_errors"), QStringLiteral("drift"));
        QCOMPARE(after.size(), std::size_t(5));
        for (const auto &[id, doc] : after) {
            const bool drifted = fixtures::fieldOf(doc, QStringLiteral("a")).startsWith('\x02');
            QCOMPARE(fixtures::fieldOf(doc, QStringLiteral("has_extras")).isEmpty(), drifted);
            if (drifted)
                QCOMPARE(doc, docs[4]); // untouched, byte for byte
            else
                QCOMPARE(fixtures::elementsOf(doc, QStringLiteral("a")).size(), 5);
        }
        r = runCli(QStringList{QStringLiteral("verify")} + ns +
                   QStringList{QStringLiteral("--field"), QStringLiteral("a")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("checked: 4, matching: 4")),
                 qPrintable(r.out + r.err));
    }

    void networkErrorsStayExitCodeThree()
    {
        const CliRun r = runCli(
            analyze(QStringLiteral("mongodb://127.0.0.1:1/")) +
            QStringList{QStringLiteral("--filter"), QStringLiteral("{\"sales\": {\"$bogus\": 1}}"),
                        QStringLiteral("--server-selection-timeout-ms"), QStringLiteral("2000")});
        QCOMPARE(r.exitCode, 3);
        expectOneLine(r);
        if (QTest::currentTestFailed())
            return;
    }

    // Issue 35: the window's advice follows the kind of connection failure (ErrorNotice): a
    // wrong password is the credentials, a server that is not there is a connection lost or
    // refused, never the password.
    void connectionFaultsAreTold()
    {
        QVERIFY(!m_authPassword.isEmpty());
        oe::ConnectionSettings wrong;
        wrong.uri = QString(m_auth).replace(m_authPassword, QStringLiteral("Wrong7pw"));
        QVERIFY(wrong.uri != m_auth);
        oe::ServerInfo info;
        oe::SourceError error;
        QVERIFY(!oe::ServerProbe::probe(wrong, QStringLiteral("admin"), &info, &error));
        qInfo("wrong password: %s", qPrintable(error.toString()));
        QCOMPARE(error.kind, oe::SourceError::Kind::Connection);
        QCOMPARE(error.fault, oe::SourceError::ConnectionFault::Authentication);

        oe::ConnectionSettings gone;
        gone.uri = QStringLiteral("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500");
        error = {};
        QVERIFY(!oe::ServerProbe::probe(gone, QStringLiteral("admin"), &info, &error));
        qInfo("no server: %s", qPrintable(error.toString()));
        QCOMPARE(error.kind, oe::SourceError::Kind::Connection);
        QCOMPARE(error.fault, oe::SourceError::ConnectionFault::Lost);
    }
};

QTEST_GUILESS_MAIN(TestLiveErrors)
#include "tst_liveerrors.moc"
