#include "MongoConnection.h"

#include <QTest>

using namespace oe;

static ConnectionSettings settingsFor(const QString &uri)
{
    ConnectionSettings s;
    s.uri = uri;
    return s;
}

// Connection strings are parsed by libmongoc; problems come back as one line that names the
// part at fault and never the password. No server is needed: clients connect lazily.
class TestMongoConnection : public QObject
{
    Q_OBJECT

private slots:
    void invalidUrisAreExplainedWithoutThePassword_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("scheme") << QStringLiteral("http://u:topsecret@h/")
                                << QStringLiteral("Schema");
        QTest::newRow("port") << QStringLiteral("mongodb://u:topsecret@h:99999/")
                              << QStringLiteral("Port");
        QTest::newRow("empty host")
            << QStringLiteral("mongodb://u:topsecret@/x") << QStringLiteral("hostname");
        QTest::newRow("read preference")
            << QStringLiteral("mongodb://u:topsecret@h/?readPreference=bogus")
            << QStringLiteral("readPreference");
        QTest::newRow("srv with port")
            << QStringLiteral("mongodb+srv://u:topsecret@h:27017/") << QStringLiteral("service");
    }
    void invalidUrisAreExplainedWithoutThePassword()
    {
        QFETCH(QString, uri);
        QFETCH(QString, mentions);
        const QString problem = MongoConnection::validateUri(uri);
        QVERIFY2(problem.contains(mentions, Qt::CaseInsensitive), qPrintable(problem));
        QVERIFY(!problem.contains(QStringLiteral("topsecret")));
        QVERIFY(!problem.contains(QLatin1Char('\n')));
        SourceError error;
        QVERIFY(!MongoConnection::open(settingsFor(uri), &error));
        QCOMPARE(error.kind, SourceError::Kind::Usage);
        QVERIFY(!error.toString().contains(QStringLiteral("topsecret")));
    }

    void validUrisPass()
    {
        QVERIFY(MongoConnection::validateUri(
                    QStringLiteral("mongodb://127.0.0.1:27017/?replicaSet=rs0"))
                    .isEmpty());
        QVERIFY(MongoConnection::validateUri(
                    QStringLiteral("mongodb://u:p@h1,h2/db?authSource=admin&tls=true"))
                    .isEmpty());
        SourceError error;
        auto c = MongoConnection::open(
            settingsFor(QStringLiteral("mongodb://u:secret@h1:1,h2:2/appdb?replicaSet=rs0")),
            &error);
        QVERIFY(c);
        QCOMPARE(c->hosts(), QStringLiteral("h1:1,h2:2"));
        QCOMPARE(c->defaultDatabase(), QStringLiteral("appdb"));
        QCOMPARE(c->redactedUri(),
                 QStringLiteral("mongodb://u:****@h1:1,h2:2/appdb?replicaSet=rs0"));
    }

    void readsFromSecondariesUnlessTheUriSaysOtherwise_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("expected");
        QTest::newRow("default") << QStringLiteral("mongodb://h1,h2/?replicaSet=rs0")
                                 << QStringLiteral("secondaryPreferred");
        QTest::newRow("primary") << QStringLiteral("mongodb://h1/?readPreference=primary")
                                 << QStringLiteral("primary");
        QTest::newRow("nearest") << QStringLiteral("mongodb://h1/?readPreference=nearest")
                                 << QStringLiteral("nearest");
        QTest::newRow("secondary")
            << QStringLiteral("mongodb://h1/?readPreference=secondary&replicaSet=rs")
            << QStringLiteral("secondary");
    }
    void readsFromSecondariesUnlessTheUriSaysOtherwise()
    {
        QFETCH(QString, uri);
        QFETCH(QString, expected);
        SourceError error;
        auto c = MongoConnection::open(settingsFor(uri), &error);
        QVERIFY2(c, qPrintable(error.toString()));
        QCOMPARE(c->readPreference(), expected);
    }
};

QTEST_GUILESS_MAIN(TestMongoConnection)
#include "tst_mongoconnection.moc"
