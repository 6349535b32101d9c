#include "mongo/ConnectionUri.h"

#include <QTest>
#include <QUrl>

using namespace oe;

namespace {

QString describe(const ConnectionUri &u)
{
    return QStringLiteral("srv=%1 hosts=[%2] user=[%3] passwordLength=%4 db=[%5] authSource=[%6] "
                          "mechanism=[%7] replicaSet=[%8] tls=%9 other=[%10]")
        .arg(u.srv)
        .arg(u.hosts, u.username)
        .arg(u.password.size())
        .arg(u.database, u.authSource, u.authMechanism, u.replicaSet)
        .arg(u.tls)
        .arg(u.otherOptions);
}

bool same(const ConnectionUri &a, const ConnectionUri &b)
{
    return a.srv == b.srv && a.hosts == b.hosts && a.username == b.username &&
           a.password == b.password && a.database == b.database && a.authSource == b.authSource &&
           a.authMechanism == b.authMechanism && a.replicaSet == b.replicaSet && a.tls == b.tls &&
           a.otherOptions == b.otherOptions;
}

} // namespace

// The connection form's model of a connection string: parsed with libmongoc, rebuilt so that
// parsing the rebuilt string gives the same parts, and never leaking the password.
class TestConnectionUri : public QObject
{
    Q_OBJECT

private slots:
    void parsesTheParts_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<bool>("srv");
        QTest::addColumn<QString>("hosts");
        QTest::addColumn<QString>("username");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("database");
        QTest::addColumn<QString>("authSource");
        QTest::addColumn<QString>("authMechanism");
        QTest::addColumn<QString>("replicaSet");
        QTest::addColumn<bool>("tls");
        QTest::addColumn<QString>("otherOptions");

        // A host without a port gets MongoDB's default port.
        QTest::newRow("single host, default port")
            << QStringLiteral("mongodb://db.example.com") << false
            << QStringLiteral("db.example.com:27017") << QString() << QString() << QString()
            << QString() << QString() << QString() << false << QString();
        QTest::newRow("single host with port")
            << QStringLiteral("mongodb://127.0.0.1:27018/") << false
            << QStringLiteral("127.0.0.1:27018") << QString() << QString() << QString() << QString()
            << QString() << QString() << false << QString();
        QTest::newRow("seed list and replica set")
            << QStringLiteral("mongodb://a.example.com:27018,b.example.com:27019,c.example.com/"
                              "?replicaSet=rs0")
            << false
            << QStringLiteral("a.example.com:27018,b.example.com:27019,c.example.com:27017")
            << QString() << QString() << QString() << QString() << QString()
            << QStringLiteral("rs0") << false << QString();
        QTest::newRow("ipv6 host")
            << QStringLiteral("mongodb://[::1]:27020/") << false << QStringLiteral("[::1]:27020")
            << QString() << QString() << QString() << QString() << QString() << QString() << false
            << QString();
        // mongodb+srv implies TLS unless the URI turns it off.
        QTest::newRow("srv") << QStringLiteral("mongodb+srv://cluster0.example.net/sales") << true
                             << QStringLiteral("cluster0.example.net") << QString() << QString()
                             << QStringLiteral("sales") << QString() << QString() << QString()
                             << true << QString();
        QTest::newRow("srv without tls")
            << QStringLiteral("mongodb+srv://cluster0.example.net/?tls=false") << true
            << QStringLiteral("cluster0.example.net") << QString() << QString() << QString()
            << QString() << QString() << QString() << false << QString();
        QTest::newRow("user and password")
            << QStringLiteral("mongodb://alice:s3cret@h:1234/app") << false
            << QStringLiteral("h:1234") << QStringLiteral("alice") << QStringLiteral("s3cret")
            << QStringLiteral("app") << QString() << QString() << QString() << false << QString();
        // @ : / % ? # and a space, all percent-encoded as a connection string requires.
        QTest::newRow("percent-encoded credentials")
            << QStringLiteral("mongodb://us%40er%3Ax:p%40ss%3Aw%2Fo%25rd%3F%23%20end@h/admin")
            << false << QStringLiteral("h:27017") << QStringLiteral("us@er:x")
            << QStringLiteral("p@ss:w/o%rd?# end") << QStringLiteral("admin") << QString()
            << QString() << QString() << false << QString();
        QTest::newRow("unicode password")
            << QStringLiteral("mongodb://bob:p%C3%A4ssw%C3%B6rd@h/") << false
            << QStringLiteral("h:27017") << QStringLiteral("bob")
            << QString::fromUtf8("p\xc3\xa4ssw\xc3\xb6rd") << QString() << QString() << QString()
            << QString() << false << QString();
        QTest::newRow("auth options")
            << QStringLiteral("mongodb://u:p@h/app?authSource=admin&authMechanism=SCRAM-SHA-256")
            << false << QStringLiteral("h:27017") << QStringLiteral("u") << QStringLiteral("p")
            << QStringLiteral("app") << QStringLiteral("admin") << QStringLiteral("SCRAM-SHA-256")
            << QString() << false << QString();
        QTest::newRow("tls") << QStringLiteral("mongodb://h/?tls=true") << false
                             << QStringLiteral("h:27017") << QString() << QString() << QString()
                             << QString() << QString() << QString() << true << QString();
        QTest::newRow("ssl is tls")
            << QStringLiteral("mongodb://h/?ssl=true") << false << QStringLiteral("h:27017")
            << QString() << QString() << QString() << QString() << QString() << QString() << true
            << QString();
        // Form keys are matched case-insensitively; the rest is kept exactly as written.
        QTest::newRow("other options preserved")
            << QStringLiteral("mongodb://h1,h2/db?appName=oe%20tool&ReplicaSet=rs1&"
                              "connectTimeoutMS=500&TLS=true&readPreference=secondaryPreferred&"
                              "AUTHSOURCE=admin")
            << false << QStringLiteral("h1:27017,h2:27017") << QString() << QString()
            << QStringLiteral("db") << QStringLiteral("admin") << QString() << QStringLiteral("rs1")
            << true
            << QStringLiteral(
                   "appName=oe%20tool&connectTimeoutMS=500&readPreference=secondaryPreferred");
        QTest::newRow("surrounding whitespace")
            << QStringLiteral("  mongodb://h/?appName=x  ") << false << QStringLiteral("h:27017")
            << QString() << QString() << QString() << QString() << QString() << QString() << false
            << QStringLiteral("appName=x");
    }
    void parsesTheParts()
    {
        QFETCH(QString, uri);
        ConnectionUri u;
        QString error;
        QVERIFY2(ConnectionUri::parse(uri, &u, &error), qPrintable(error));
        QTEST(u.srv, "srv");
        QTEST(u.hosts, "hosts");
        QTEST(u.username, "username");
        QTEST(u.password, "password");
        QTEST(u.database, "database");
        QTEST(u.authSource, "authSource");
        QTEST(u.authMechanism, "authMechanism");
        QTEST(u.replicaSet, "replicaSet");
        QTEST(u.tls, "tls");
        QTEST(u.otherOptions, "otherOptions");
    }

    void rebuiltUriParsesToTheSameParts_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::newRow("plain") << QStringLiteral("mongodb://localhost:27017/");
        QTest::newRow("seed list") << QStringLiteral(
            "mongodb://a:1,b:2,c:3/inventory?replicaSet=rs0&readPreference=nearest");
        QTest::newRow("credentials") << QStringLiteral(
            "mongodb://us%40er:p%40ss%3Aw%2Fo%25rd%3F%23%20end@h:5/admin?authSource=other");
        QTest::newRow("mechanism")
            << QStringLiteral("mongodb://u:p@h/?authMechanism=SCRAM-SHA-1&authSource=admin");
        QTest::newRow("tls and options")
            << QStringLiteral("mongodb://h/?ssl=true&appName=x&w=majority&retryWrites=false");
        QTest::newRow("srv") << QStringLiteral("mongodb+srv://u:p@cluster0.example.net/db");
        QTest::newRow("srv, tls off")
            << QStringLiteral("mongodb+srv://cluster0.example.net/db?tls=false");
        QTest::newRow("ipv6") << QStringLiteral("mongodb://[::1]:27020,[fe80::1]:27021/");
    }
    void rebuiltUriParsesToTheSameParts()
    {
        QFETCH(QString, uri);
        ConnectionUri first;
        QString error;
        QVERIFY2(ConnectionUri::parse(uri, &first, &error), qPrintable(error));
        const QString rebuilt = first.toUri();
        ConnectionUri second;
        QVERIFY2(ConnectionUri::parse(rebuilt, &second, &error),
                 qPrintable(rebuilt + QStringLiteral(": ") + error));
        QVERIFY2(same(first, second),
                 qPrintable(rebuilt + QStringLiteral("\n  ") + describe(first) +
                            QStringLiteral("\n  ") + describe(second)));
        // A rebuilt string is stable: rebuilding it again changes nothing.
        QCOMPARE(second.toUri(), rebuilt);
    }

    // Parts set by the form (not parsed from a string) come back unchanged through the URI.
    void partsSurviveTheUri()
    {
        ConnectionUri u;
        u.hosts = QStringLiteral("db1.example.com:27017,db2.example.com:27018");
        u.username = QStringLiteral("ops@team:1/2 %x");
        u.password = QString::fromUtf8("p@:/?#[]%&=+ \xc3\xbc!$'()*,;\\end");
        u.database = QStringLiteral("sales");
        u.authSource = QStringLiteral("admin");
        u.authMechanism = QStringLiteral("SCRAM-SHA-256");
        u.replicaSet = QStringLiteral("rs0");
        u.tls = true;
        u.otherOptions = QStringLiteral("appName=oe&connectTimeoutMS=1500");
        ConnectionUri back;
        QString error;
        QVERIFY2(ConnectionUri::parse(u.toUri(), &back, &error), qPrintable(error));
        QVERIFY2(same(u, back), qPrintable(describe(u) + QStringLiteral("\n") + describe(back)));
    }

    void uriWithoutPasswordNeverContainsIt_data()
    {
        QTest::addColumn<QString>("password");
        QTest::newRow("plain") << QStringLiteral("Hunter2Hunter2");
        QTest::newRow("special") << QStringLiteral("S3cr@t:/%Pw?#");
        QTest::newRow("unicode") << QString::fromUtf8("G\xc3\xa9heimnis\xe2\x82\xac");
    }
    void uriWithoutPasswordNeverContainsIt()
    {
        QFETCH(QString, password);
        const QString encoded = QString::fromLatin1(QUrl::toPercentEncoding(password));
        const QString uri =
            QStringLiteral("mongodb://alice:%1@h1:1,h2:2/app?authSource=admin").arg(encoded);
        ConnectionUri u;
        QString error;
        QVERIFY2(ConnectionUri::parse(uri, &u, &error), qPrintable(error));
        QCOMPARE(u.password, password);
        QVERIFY(u.toUri().contains(encoded));

        const QString without = u.toUriWithoutPassword();
        QVERIFY2(!without.contains(password), qPrintable(without));
        QVERIFY2(!without.contains(encoded), qPrintable(without));
        QVERIFY(!without.contains(QUrl::fromPercentEncoding(encoded.toLatin1())));
        QVERIFY(!without.toLower().contains(encoded.toLower()));
        ConnectionUri back;
        QVERIFY2(ConnectionUri::parse(without, &back, &error), qPrintable(error));
        QVERIFY(back.password.isEmpty());
        QCOMPARE(back.username, QStringLiteral("alice"));
        QCOMPARE(back.hosts, u.hosts);
        QCOMPARE(back.authSource, QStringLiteral("admin"));
        QCOMPARE(back.database, QStringLiteral("app"));
        // The struct itself is not changed by asking for the redacted form.
        QCOMPARE(u.password, password);
    }

    void invalidUrisGiveOneLine_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("wrong scheme")
            << QStringLiteral("http://h:27017/") << QStringLiteral("mongodb://");
        QTest::newRow("no scheme") << QStringLiteral("h:27017") << QStringLiteral("mongodb://");
        QTest::newRow("empty host") << QStringLiteral("mongodb://") << QStringLiteral("host");
        QTest::newRow("empty host with credentials")
            << QStringLiteral("mongodb://u:topsecret@/db") << QStringLiteral("host");
        QTest::newRow("port out of range")
            << QStringLiteral("mongodb://h:99999/") << QStringLiteral("port");
        QTest::newRow("port not a number")
            << QStringLiteral("mongodb://u:topsecret@h:abc/") << QStringLiteral("port");
        QTest::newRow("srv with port")
            << QStringLiteral("mongodb+srv://u:topsecret@h.example.com:27017/")
            << QStringLiteral("srv");
    }
    void invalidUrisGiveOneLine()
    {
        QFETCH(QString, uri);
        QFETCH(QString, mentions);
        ConnectionUri u;
        u.hosts = QStringLiteral("untouched");
        QString error;
        QVERIFY(!ConnectionUri::parse(uri, &u, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
        QVERIFY2(error.contains(mentions, Qt::CaseInsensitive), qPrintable(error));
        QVERIFY2(!error.contains(QStringLiteral("topsecret")), qPrintable(error));
        QCOMPARE(u.hosts, QStringLiteral("untouched")); // the output is left alone on failure
    }

    void emptyHostsBuildTheLocalDefault()
    {
        ConnectionUri u;
        ConnectionUri back;
        QString error;
        QVERIFY2(ConnectionUri::parse(u.toUri(), &back, &error), qPrintable(error));
        QCOMPARE(back.hosts, QStringLiteral("localhost:27017"));
        QVERIFY(!back.srv);
        QVERIFY(back.username.isEmpty() && back.password.isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestConnectionUri)
#include "tst_connectionuri.moc"
