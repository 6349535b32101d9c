#include "mongo/LiveQuery.h"

#include <QTest>

using namespace oe;

// A live query's filter: checked before anything is sent, and blamed (a usage error, exit 2)
// when the server refuses it.
class TestLiveQuery : public QObject
{
    Q_OBJECT

private slots:
    void validateFilter_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<QString>("problem"); // empty: accepted; else a word of the message
        QTest::newRow("none") << QString() << QString();
        QTest::newRow("blank") << QStringLiteral("  ") << QString();
        QTest::newRow("empty document") << QStringLiteral("{}") << QString();
        QTest::newRow("relaxed") << QStringLiteral(" {\"_id\": {\"$lte\": 5}} ") << QString();
        QTest::newRow("canonical")
            << QStringLiteral("{\"n\": {\"$numberLong\": \"5\"}}") << QString();
        QTest::newRow("array") << QStringLiteral("[1,2]") << QStringLiteral("array");
        QTest::newRow("empty array") << QStringLiteral(" []") << QStringLiteral("array");
        QTest::newRow("array of documents")
            << QStringLiteral("[{\"a\": 1}]") << QStringLiteral("array");
        QTest::newRow("number") << QStringLiteral("1") << QStringLiteral("document");
        QTest::newRow("string") << QStringLiteral("\"x\"") << QStringLiteral("document");
        QTest::newRow("broken") << QStringLiteral("{\"a\": }") << QStringLiteral("invalid");
    }
    void validateFilter()
    {
        QFETCH(QString, filter);
        QFETCH(QString, problem);
        const QString message = LiveQuery::validateFilter(filter);
        if (problem.isEmpty()) {
            QVERIFY2(message.isEmpty(), qPrintable(message));
            return;
        }
        QVERIFY2(message.contains(problem), qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));
    }

    void blameFilter_data()
    {
        QTest::addColumn<QString>("filter");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("serverCode");
        QTest::addColumn<bool>("blamed");
        const int connection = int(SourceError::Kind::Connection);
        QTest::newRow("BadValue") << QStringLiteral("{\"$where\": \"1\"}") << connection << 2
                                  << true;
        QTest::newRow("FailedToParse") << QStringLiteral("{}") << connection << 9 << true;
        QTest::newRow("InvalidPipelineOperator")
            << QStringLiteral("{\"$expr\": {\"$x\": 1}}") << connection << 168 << true;
        QTest::newRow("NotImplemented")
            << QStringLiteral("{\"a\": 1}") << connection << 238 << true;
        QTest::newRow("no filter") << QString() << connection << 2 << false;
        QTest::newRow("network") << QStringLiteral("{\"a\": 1}") << connection << 0 << false;
        QTest::newRow("unauthorized") << QStringLiteral("{\"a\": 1}") << connection << 13 << false;
        QTest::newRow("time limit") << QStringLiteral("{\"a\": 1}") << connection << 50 << false;
        QTest::newRow("already a usage error")
            << QStringLiteral("{\"a\": 1}") << int(SourceError::Kind::Usage) << 2 << false;
    }
    void blameFilter()
    {
        QFETCH(QString, filter);
        QFETCH(int, kind);
        QFETCH(int, serverCode);
        QFETCH(bool, blamed);
        SourceError error;
        error.kind = SourceError::Kind(kind);
        error.source = QStringLiteral("h:1");
        error.message = QStringLiteral("reading db.c (find): unknown operator: $x");
        error.serverCode = serverCode;
        LiveQuery::blameFilter(filter, &error);
        QCOMPARE(error.kind, blamed ? SourceError::Kind::Usage : SourceError::Kind(kind));
        QCOMPARE(error.toString().contains(QStringLiteral("--filter")), blamed);
        QVERIFY(error.toString().contains(QStringLiteral("unknown operator: $x")));
    }
};

QTEST_GUILESS_MAIN(TestLiveQuery)
#include "tst_livequery.moc"
