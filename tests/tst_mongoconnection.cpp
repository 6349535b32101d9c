#include "mongo/ConnectionReuse.h"
#include "mongo/MongoConnection.h"
#include "mongo/internal/MongoDriver.h"

#include <QTest>

#include <mongoc/mongoc.h>

#include <thread>

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

    // A hanging connection attempt (tls=true against a plain server) lasts the connect timeout
    // however short the server selection timeout is, so the connect timeout follows it down.
    void connectTimeoutFollowsTheSelectionTimeout_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<int>("selectionSetting"); // 0: the default
        QTest::addColumn<int>("selection");
        QTest::addColumn<int>("connect");
        QTest::newRow("defaults") << QStringLiteral("mongodb://h/") << 0 << 10000 << 10000;
        QTest::newRow("shorter setting") << QStringLiteral("mongodb://h/") << 2000 << 2000 << 2000;
        QTest::newRow("longer setting")
            << QStringLiteral("mongodb://h/") << 30000 << 30000 << 10000;
        QTest::newRow("in the uri")
            << QStringLiteral("mongodb://h/?tls=true&serverSelectionTimeoutMS=1500") << 0 << 1500
            << 1500;
        QTest::newRow("uri wins over setting")
            << QStringLiteral("mongodb://h/?serverSelectionTimeoutMS=1500") << 30000 << 1500
            << 1500;
        QTest::newRow("uri connect timeout kept")
            << QStringLiteral("mongodb://h/?serverSelectionTimeoutMS=1500&connectTimeoutMS=5000")
            << 0 << 1500 << 5000;
    }
    void connectTimeoutFollowsTheSelectionTimeout()
    {
        QFETCH(QString, uri);
        QFETCH(int, selectionSetting);
        QFETCH(int, selection);
        QFETCH(int, connect);
        ConnectionSettings settings = settingsFor(uri);
        if (selectionSetting > 0)
            settings.serverSelectionTimeoutMs = selectionSetting;
        SourceError error;
        auto c = MongoConnection::open(settings, &error);
        QVERIFY2(c, qPrintable(error.toString()));
        const mongoc_uri_t *applied = mongoc_client_get_uri(MongoDriver::client(*c));
        QCOMPARE(mongoc_uri_get_option_as_int32(applied, MONGOC_URI_SERVERSELECTIONTIMEOUTMS, -1),
                 selection);
        QCOMPARE(mongoc_uri_get_option_as_int32(applied, MONGOC_URI_CONNECTTIMEOUTMS, -1), connect);
    }

    // The driver logs some causes apart from the error it returns; they join the error's one
    // line (redacted), never stderr.
    // Within a ConnectionReuse scope, the connections a thread opens with the same settings
    // share one client; other settings, other threads, an inner scope and no scope get their own.
    void connectionsShareAClientWithinAScope()
    {
        const ConnectionSettings one = settingsFor(QStringLiteral("mongodb://127.0.0.1:1/"));
        ConnectionSettings other = one;
        other.appName = QStringLiteral("another");
        SourceError error;
        auto clientOf = [&](const ConnectionSettings &s) {
            const auto c = MongoConnection::open(s, &error);
            return c ? MongoDriver::client(*c) : nullptr;
        };
        const auto outside1 = MongoConnection::open(one, &error);
        const auto outside2 = MongoConnection::open(one, &error);
        QVERIFY(outside1 && outside2);
        QVERIFY(MongoDriver::client(*outside1) != MongoDriver::client(*outside2));
        {
            const ConnectionReuse reuse;
            const auto first = MongoConnection::open(one, &error);
            QVERIFY(first);
            mongoc_client_t *shared = MongoDriver::client(*first);
            QCOMPARE(clientOf(one), shared);
            QVERIFY(clientOf(other) != shared);
            QCOMPARE(clientOf(other), clientOf(other));
            // Another thread makes its own, as a libmongoc client requires.
            mongoc_client_t *elsewhere = nullptr;
            std::thread([&] { elsewhere = clientOf(one); }).join();
            QVERIFY(elsewhere && elsewhere != shared);
            {
                const ConnectionReuse inner;
                const auto fresh = MongoConnection::open(one, &error);
                QVERIFY(fresh && MongoDriver::client(*fresh) != shared);
                QCOMPARE(clientOf(one), MongoDriver::client(*fresh));
            }
            QCOMPARE(clientOf(one), shared); // the outer scope is back
        }
        const auto after1 = MongoConnection::open(one, &error);
        const auto after2 = MongoConnection::open(one, &error);
        QVERIFY(MongoDriver::client(*after1) != MongoDriver::client(*after2));
    }

    void driverMessagesJoinTheErrorRedacted()
    {
        SourceError error;
        auto c =
            MongoConnection::open(settingsFor(QStringLiteral("mongodb://127.0.0.1:1/")), &error);
        QVERIFY(c);
        mongoc_log(MONGOC_LOG_LEVEL_WARNING, "mongoc", "cannot reach mongodb://u:topsecret@h:1/");
        mongoc_log(MONGOC_LOG_LEVEL_WARNING, "mongoc", "cannot reach mongodb://u:topsecret@h:1/");
        mongoc_log(MONGOC_LOG_LEVEL_DEBUG, "mongoc", "chatter");
        mongoc_log(MONGOC_LOG_LEVEL_ERROR, "mongoc", "Last server removed from topology");
        bson_error_t e;
        bson_set_error(&e, MONGOC_ERROR_SERVER_SELECTION, MONGOC_ERROR_SERVER_SELECTION_FAILURE,
                       "No suitable servers found");
        const QString line = MongoDriver::errorFrom(*c, e, QStringLiteral("connecting")).toString();
        QCOMPARE(line, QStringLiteral("127.0.0.1:1: connecting: No suitable servers found "
                                      "(driver: cannot reach mongodb://u:****@h:1/; Last server "
                                      "removed from topology)"));
        // A new connection starts afresh.
        c = MongoConnection::open(settingsFor(QStringLiteral("mongodb://127.0.0.1:1/")), &error);
        QVERIFY(c);
        QCOMPARE(MongoDriver::errorFrom(*c, e, QStringLiteral("connecting")).toString(),
                 QStringLiteral("127.0.0.1:1: connecting: No suitable servers found"));
    }
};

QTEST_GUILESS_MAIN(TestMongoConnection)
#include "tst_mongoconnection.moc"
