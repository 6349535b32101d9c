// Journals an older build wrote, kept as fixtures (issue 55): tests/data/journals/<run>/ holds
// a collection, its journal and its side collections as the build at the manifest's commit left
// them, killed with -9 half-way through a run (made by make_fixtures.py). Today's build, on
// mongod, resumes each run where it stopped, ends with the documents a run of its own makes from
// the same originals (byte for byte; a GridFS file's new ObjectId aside), verifies it against
// the old journal, and rolls it back to the original documents byte for byte. Every remedy and
// the split.
#include "CliRunner.h"
#include "JournalFixtures.h"
#include "LiveBench.h"
#include "LiveDocuments.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

namespace {

const QString kDb = QStringLiteral("oe_journal_fixture");
const QString kFresh = QStringLiteral("oe_journal_fresh");

} // namespace

class TestJournalFixtures : public QObject, public LiveBench
{
    Q_OBJECT

    QStringList target(const QString &db, const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,     QStringLiteral("--db"), db,
                QStringLiteral("--collection"), collection};
    }
    // The run's command line on `db`: the manifest's run, its target inserted after the command.
    QStringList runArgs(const QJsonObject &manifest, const QString &db) const
    {
        QStringList run;
        for (const QJsonValue &v : manifest.value(QStringLiteral("run")).toArray())
            run << v.toString();
        return run.mid(0, 1) + target(db, manifest.value(QStringLiteral("collection")).toString()) +
               run.mid(1);
    }
    static bool isSplit(const QStringList &args) { return args.first() == QLatin1String("split"); }
    // verify or rollback of the run: the rewrite's own options, or the split's field.
    static QStringList stepArgs(const QStringList &args, const QString &step)
    {
        if (!isSplit(args))
            return args + QStringList{QStringLiteral("--") + step};
        QStringList out = args;
        out[0] = step; // verify/rollback --field F (the split's layout options are the journal's)
        const qsizetype field = out.indexOf(QStringLiteral("--field"));
        return out.mid(0, 7) + out.mid(field, 2);
    }
    // The same run by today's build, whole, on the original documents in kFresh.
    std::map<QByteArray, QByteArray> freshRun(const QString &dir, const QJsonObject &manifest)
    {
        const QString c = manifest.value(QStringLiteral("collection")).toString();
        QString error;
        fixtures::command(m_uri, kFresh, QByteArray("{\"dropDatabase\": 1}"), &error);
        CliRun r = runCli(QStringList{QStringLiteral("import")} + target(kFresh, c) +
                          QStringList{QStringLiteral("--dump"),
                                      QDir(dir).filePath(QStringLiteral("original.bson"))});
        if (r.exitCode != 0)
            return {};
        r = runCli(runArgs(manifest, kFresh) + QStringList{QStringLiteral("--yes")});
        if (r.exitCode != 0)
            return {};
        return fixtures::readCollection(m_uri, kFresh, c);
    }

public:
    TestJournalFixtures() : LiveBench(kDb) {}

private slots:
    void initTestCase()
    {
        const QString missing = openServer();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        if (!m_server.isMongod())
            QSKIP("the fixtures are mongod's (byte for byte on mongod)");
    }

    void resumeVerifyRollBack_data()
    {
        QTest::addColumn<QString>("fixture");
        for (const char *fixture : {"keys", "convert", "extract", "gridfs", "attributes", "split"})
            QTest::newRow(fixture) << QString::fromLatin1(fixture);
    }

    void resumeVerifyRollBack()
    {
        QFETCH(QString, fixture);
        const QString dir = fixtures::journalFixtureDir(fixture);
        QVERIFY2(!dir.isEmpty(), qPrintable(fixture));
        const QJsonObject manifest = fixtures::journalManifest(dir);
        QCOMPARE(manifest.value(QStringLiteral("state")).toString(), QStringLiteral("applying"));
        // Killed between journaling a round and knowing its writes landed: the hardest resume.
        QVERIFY(manifest.value(QStringLiteral("pending")).toInt() > 0);
        const QString c = manifest.value(QStringLiteral("collection")).toString();
        const auto original =
            fixtures::documentsOf(QDir(dir).filePath(QStringLiteral("original.bson")));
        QVERIFY(original.size() > 100);
        QVERIFY(run(QStringLiteral("{\"dropDatabase\": 1}")));
        const QString loaded = fixtures::loadJournalFixture(m_uri, kDb, dir);
        QVERIFY2(loaded.isEmpty(), qPrintable(loaded));
        const auto interrupted = read(c);
        QVERIFY(interrupted != original); // the old build wrote part of its run

        // Resumed where the old build stopped: the documents today's build makes of the same
        // originals in one run of its own.
        const QStringList args = runArgs(manifest, kDb);
        CliRun r = runCli(args + QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        if (!isSplit(args))
            QVERIFY2(r.out.contains(QStringLiteral("resuming an interrupted rewrite")),
                     qPrintable(r.out));
        const auto resumed = read(c);
        const auto fresh = freshRun(dir, manifest);
        QCOMPARE(resumed.size(), original.size());
        QCOMPARE(fresh.size(), original.size());
        int same = 0;
        for (const auto &[id, doc] : resumed) {
            const QByteArray other = fresh.count(id) ? fresh.at(id) : QByteArray();
            // A GridFS file's _id is a new ObjectId in each run: the field holds one in both,
            // and every other field is the same.
            if (fixture != QLatin1String("gridfs")) {
                same += doc == other;
                continue;
            }
            bool alike = fixtures::keysOf(doc) == fixtures::keysOf(other);
            for (const QString &key : fixtures::keysOf(doc))
                alike =
                    alike && (key == QLatin1String("scan")
                                  ? fixtures::fieldOf(doc, key).left(1) ==
                                        fixtures::fieldOf(other, key).left(1)
                                  : fixtures::fieldOf(doc, key) == fixtures::fieldOf(other, key));
            same += alike;
        }
        QCOMPARE(same, int(original.size()));

        r = runCli(stepArgs(args, QStringLiteral("verify")));
        QVERIFY2(r.exitCode == 0 && (isSplit(args) || r.out.contains(QStringLiteral("verified"))),
                 qPrintable(r.out + r.err));

        r = runCli(stepArgs(args, QStringLiteral("rollback")) +
                   QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(read(c) == original, "the rolled-back collection differs from the original");
    }

    void cleanupTestCase()
    {
        run(QStringLiteral("{\"dropDatabase\": 1}"));
        QString error;
        fixtures::command(m_uri, kFresh, QByteArray("{\"dropDatabase\": 1}"), &error);
    }
};

QTEST_GUILESS_MAIN(TestJournalFixtures)
#include "tst_journalfixtures.moc"
