#include "mongo/UriRedactor.h"

#include <QTest>

using namespace oe;

// Credentials never leave the process: every URI shown, logged or exported is redacted.
class TestUriRedactor : public QObject
{
    Q_OBJECT

private slots:
    void redact_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no credentials") << QStringLiteral("mongodb://localhost:27017/db")
                                        << QStringLiteral("mongodb://localhost:27017/db");
        QTest::newRow("user and password")
            << QStringLiteral("mongodb://alice:s3cret@db1.example.com:27017/app")
            << QStringLiteral("mongodb://alice:****@db1.example.com:27017/app");
        QTest::newRow("user only")
            << QStringLiteral("mongodb://alice@host/") << QStringLiteral("mongodb://alice@host/");
        QTest::newRow("srv")
            << QStringLiteral(
                   "mongodb+srv://bob:pa%40ss@cluster0.abc.mongodb.net/?retryWrites=true")
            << QStringLiteral("mongodb+srv://bob:****@cluster0.abc.mongodb.net/?retryWrites=true");
        QTest::newRow("replica set hosts")
            << QStringLiteral("mongodb://u:p@h1:1,h2:2,h3:3/?replicaSet=rs0")
            << QStringLiteral("mongodb://u:****@h1:1,h2:2,h3:3/?replicaSet=rs0");
        QTest::newRow("colon in password")
            << QStringLiteral("mongodb://u:a:b:c@h/") << QStringLiteral("mongodb://u:****@h/");
        QTest::newRow("raw @ in password")
            << QStringLiteral("mongodb://u:p@ss@h/x") << QStringLiteral("mongodb://u:****@h/x");
        QTest::newRow("no path") << QStringLiteral("mongodb://u:p@h")
                                 << QStringLiteral("mongodb://u:****@h");
        QTest::newRow("options only") << QStringLiteral("mongodb://u:p@h?authSource=admin")
                                      << QStringLiteral("mongodb://u:****@h?authSource=admin");
        QTest::newRow("not a uri") << QStringLiteral("hello") << QStringLiteral("hello");
    }
    void redact()
    {
        QFETCH(QString, uri);
        QFETCH(QString, expected);
        QCOMPARE(UriRedactor::redact(uri), expected);
    }

    void redactsUrisInsideText()
    {
        const QString text = QStringLiteral("failed to reach mongodb://a:hunter2@h:1/db and "
                                            "\"mongodb+srv://b:xyz@c.net/\" twice");
        const QString out = UriRedactor::redactText(text);
        QVERIFY(!out.contains(QStringLiteral("hunter2")));
        QVERIFY(!out.contains(QStringLiteral("xyz@")));
        QCOMPARE(out, QStringLiteral("failed to reach mongodb://a:****@h:1/db and "
                                     "\"mongodb+srv://b:****@c.net/\" twice"));
    }
};

QTEST_GUILESS_MAIN(TestUriRedactor)
#include "tst_uriredactor.moc"
