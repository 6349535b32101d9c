#include "mongo/NamespaceLookup.h"

#include <QTest>

using namespace oe;

// Names from the server are anything: shown quoted on one line, control, format and
// line-separator characters escaped, long ones shortened; the message names at most five.
class TestNamespaceLookup : public QObject
{
    Q_OBJECT

private slots:
    void quoted_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << QStringLiteral("feeds") << QStringLiteral("\"feeds\"");
        QTest::newRow("quote and backslash")
            << QStringLiteral("we\"ird\\") << QStringLiteral("\"we\\\"ird\\\\\"");
        QTest::newRow("line feed, tab")
            << QStringLiteral("a\nb\tc") << QStringLiteral("\"a\\nb\\tc\"");
        QTest::newRow("terminal escape")
            << QStringLiteral("x\x1b[2Jy") << QStringLiteral("\"x\\u001b[2Jy\"");
        QTest::newRow("bidi override") << QString(QStringLiteral("a") + QChar(0x202E) + u'b')
                                       << QStringLiteral("\"a\\u202eb\"");
        QTest::newRow("line separator")
            << QString(QStringLiteral("a") + QChar(0x2028)) << QStringLiteral("\"a\\u2028\"");
        QTest::newRow("non-ASCII kept") << QStringLiteral("café") << QStringLiteral("\"café\"");
        QTest::newRow("long") << QString(100, u'n')
                              << QString(QStringLiteral("\"") + QString(80, u'n') +
                                         QStringLiteral("…\""));
    }
    void quoted()
    {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QCOMPARE(NamespaceLookup::quoted(name), expected);
    }

    void message()
    {
        NamespaceLookup lookup;
        lookup.database = QStringLiteral("shop");
        lookup.collection = QStringLiteral("feedz");
        lookup.state = NamespaceLookup::State::NoCollection;
        lookup.nearby = {QStringLiteral("feeds"), QStringLiteral("fe\ned")};
        lookup.candidates = 9;
        QCOMPARE(lookup.message(),
                 QStringLiteral("no collection \"feedz\" in database \"shop\"; its collections "
                                "closest to that name: \"feeds\", \"fe\\ned\" (2 of 9)"));
        lookup.state = NamespaceLookup::State::NoDatabase;
        lookup.nearby.clear();
        lookup.candidates = 0;
        QCOMPARE(lookup.message(),
                 QStringLiteral("no database \"shop\" on the server (no collection is in it)"));
        lookup.state = NamespaceLookup::State::Present;
        QVERIFY(!lookup.isMissing());
        QVERIFY(lookup.message().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestNamespaceLookup)
#include "tst_namespacelookup.moc"
