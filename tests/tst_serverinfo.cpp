#include "migration/MigrationPreflight.h"
#include "mongo/ServerInfo.h"

#include <QTest>

using namespace oe;

// What the product concludes from a server's self-description: FerretDB's major version, and
// from it whether single-document updates are atomic, which decides the split's warning.
class TestServerInfo : public QObject
{
    Q_OBJECT

    static ServerInfo server(bool ferretDb, const QString &version)
    {
        ServerInfo info;
        info.version = QStringLiteral("7.0.77");
        info.isFerretDb = ferretDb;
        info.ferretDbVersion = version;
        return info;
    }

private slots:
    void updateAtomicity_data()
    {
        QTest::addColumn<bool>("ferretDb");
        QTest::addColumn<QString>("version");
        QTest::addColumn<int>("major"); // -1: unknown
        QTest::addColumn<int>("atomicity");
        const int atomic = int(ServerInfo::UpdateAtomicity::Atomic);
        const int notAtomic = int(ServerInfo::UpdateAtomicity::NotAtomic);
        const int unknown = int(ServerInfo::UpdateAtomicity::Unknown);
        QTest::newRow("MongoDB") << false << QString() << -1 << atomic;
        QTest::newRow("v1.24.2") << true << QStringLiteral("v1.24.2") << 1 << notAtomic;
        QTest::newRow("1.24.2") << true << QStringLiteral("1.24.2") << 1 << notAtomic;
        QTest::newRow("development build")
            << true << QStringLiteral("v1.24.2-5-gabc1234") << 1 << notAtomic;
        QTest::newRow("0.9.0") << true << QStringLiteral("v0.9.0") << 0 << notAtomic;
        QTest::newRow("2.0.0-rc.2") << true << QStringLiteral("2.0.0-rc.2") << 2 << atomic;
        QTest::newRow("v2.1.0") << true << QStringLiteral("v2.1.0") << 2 << atomic;
        QTest::newRow("V10.0") << true << QStringLiteral(" V10.0 ") << 10 << atomic;
        QTest::newRow("empty") << true << QString() << -1 << unknown;
        QTest::newRow("unknown") << true << QStringLiteral("unknown") << -1 << unknown;
        QTest::newRow("bare v") << true << QStringLiteral("v") << -1 << unknown;
        QTest::newRow("digits then letters") << true << QStringLiteral("12abc") << -1 << unknown;
    }
    void updateAtomicity()
    {
        QFETCH(bool, ferretDb);
        QFETCH(QString, version);
        QFETCH(int, major);
        QFETCH(int, atomicity);
        const ServerInfo info = server(ferretDb, version);
        QCOMPARE(info.ferretDbMajorVersion().value_or(-1), major);
        QCOMPARE(int(info.updateAtomicity()), atomicity);

        // The split warns exactly where updates are not (or may not be) atomic.
        const QString note = MigrationPreflight::atomicityNote(info, QStringLiteral("books"));
        switch (ServerInfo::UpdateAtomicity(atomicity)) {
        case ServerInfo::UpdateAtomicity::Atomic:
            QVERIFY2(note.isEmpty(), qPrintable(note));
            break;
        case ServerInfo::UpdateAtomicity::NotAtomic:
            QVERIFY2(note.contains(QStringLiteral("FerretDB ") + version) &&
                         note.contains(QStringLiteral("not atomic")) &&
                         note.contains(QStringLiteral("books")),
                     qPrintable(note));
            break;
        case ServerInfo::UpdateAtomicity::Unknown:
            QVERIFY2(note.contains(QStringLiteral("unknown version")) &&
                         note.contains(QStringLiteral("if this is 1.x")) &&
                         note.contains(QStringLiteral("books")),
                     qPrintable(note));
            break;
        }
    }
};

QTEST_GUILESS_MAIN(TestServerInfo)
#include "tst_serverinfo.moc"
