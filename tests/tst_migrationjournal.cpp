// Rollback and verify trust only what they can prove (issue 24): a document whose flag the
// application cleared keeps its pages (named, exit non-zero), and a damaged journal (entries
// deleted, a state or the config edited) is refused before anything is written. On mongod and
// on FerretDB.
#include "CliRunner.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "SplitDocuments.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace Qt::StringLiterals;

class TestMigrationJournal : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    fixtures::LiveServer m_server;
    QString m_uri, m_dump;
    const QString kDb = u"oe_journal"_s;
    const QString kField = u"customers_purchased"_s;
    static constexpr int kKeep = 10;

    QStringList target(const QString &collection) const
    {
        return {u"--uri"_s, m_uri, u"--db"_s, kDb, u"--collection"_s, collection};
    }
    CliRun command(const QString &verb, const QString &collection, const QStringList &more = {})
    {
        return runCli(QStringList{verb} + target(collection) + QStringList{u"--field"_s, kField} +
                      more);
    }
    // The demo collection imported and split (keep 10, pages of 20).
    void importAndSplit(const QString &collection)
    {
        CliRun r = runCli(QStringList{u"import"_s} + target(collection) +
                          QStringList{u"--dump"_s, m_dump, u"--drop"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = command(u"split"_s, collection,
                    {u"--keep"_s, QString::number(kKeep), u"--page-size"_s, u"20"_s, u"--yes"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
    }
    std::map<QByteArray, QByteArray> read(const QString &collection) const
    {
        return fixtures::readCollection(m_uri, kDb, collection);
    }
    void run(const QByteArray &json)
    {
        QString error;
        QVERIFY2(fixtures::command(m_uri, kDb, json, &error), qPrintable(error));
    }
    // The _ids (as relaxed JSON numbers: the demo's _ids are integers) of `n` split documents.
    QList<qint64> splitDocuments(const QString &collection, int n) const
    {
        QList<qint64> ids;
        for (const auto &[id, doc] : read(collection))
            if (!fixtures::fieldOf(doc, u"has_extras"_s).isEmpty() && ids.size() < n)
                ids << fixtures::numberOf(doc, u"_id"_s);
        return ids;
    }
    // Every original element is in its document or its pages, once and in order.
    void expectNothingLost(const QString &collection)
    {
        const auto after = fixtures::reassembled(m_uri, kDb, collection, kField);
        for (const QByteArray &doc : fixtures::dumpDocuments(m_dump)) {
            const QByteArray id = fixtures::fieldOf(doc, u"_id"_s);
            const QList<QByteArray> expected = fixtures::elementsOf(doc, kField);
            if (after.at(id) != expected)
                QFAIL(qPrintable(fixtures::elementDifference(id, after.at(id), expected)));
        }
    }

private slots:
    void initTestCase()
    {
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        QCOMPARE(runCli({u"demo-data"_s, u"--out"_s, m_dir.path(), u"--dataset"_s, u"book_sales"_s,
                         u"--docs"_s, u"300"_s})
                     .exitCode,
                 0);
        m_dump = m_dir.filePath(u"book_sales.bson"_s);
    }

    void rollbackSaysWhatIsLeftAndRemovesIt()
    {
        const QString collection = u"leftovers"_s;
        importAndSplit(collection);
        CliRun r = command(u"rollback"_s, collection, {u"--yes"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        // Its findings are the mismatches (none), not a verify's counts ("checked: 0, matching:
        // 12" before).
        QVERIFY2(r.out.contains(u"\nmismatches: 0\n"_s) && !r.out.contains(u"checked:"_s),
                 qPrintable(r.out));
        QVERIFY2(
            r.out.contains(u"left: overflow collection %1_overflow (empty)"_s.arg(collection)) &&
                r.out.contains(
                    u"left: migration journal %1_outlier_migrations"_s.arg(collection)) &&
                r.out.contains(u"--remove-leftovers"_s),
            qPrintable(r.out));
        QVERIFY(fixtures::collectionExists(m_uri, kDb, collection + u"_overflow"_s));
        r = command(u"rollback"_s, collection, {u"--yes"_s, u"--remove-leftovers"_s});
        QVERIFY2(r.exitCode == 0 && r.out.contains(u"removed: %1_overflow"_s.arg(collection)),
                 qPrintable(r.out + r.err));
        QVERIFY(!fixtures::collectionExists(m_uri, kDb, collection + u"_overflow"_s));
        QVERIFY(!fixtures::collectionExists(m_uri, kDb, collection + u"_outlier_migrations"_s));
        const auto now = read(collection);
        for (const QByteArray &doc : fixtures::dumpDocuments(m_dump))
            QCOMPARE(now.at(fixtures::fieldOf(doc, u"_id"_s)), doc);
    }

    void leftoversAreNotRemovedBeforeTheRollback()
    {
        const QString collection = u"leftovers_split"_s;
        importAndSplit(collection);
        const CliRun r = command(u"verify"_s, collection, {u"--remove-leftovers"_s});
        QVERIFY(fixtures::collectionExists(m_uri, kDb, collection + u"_overflow"_s));
        QVERIFY2(!r.out.contains(u"removed"_s), qPrintable(r.out));
    }

    void rollbackKeepsThePagesOfDocumentsTheApplicationUnflagged()
    {
        const QString collection = u"unflagged"_s;
        importAndSplit(collection);
        const QList<qint64> unflagged = splitDocuments(collection, 5);
        QCOMPARE(unflagged.size(), 5);
        QStringList list;
        for (qint64 id : unflagged)
            list << QString::number(id);
        run(u"{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": {\"$in\": [%2]}}, "
            "\"u\": {\"$unset\": {\"has_extras\": \"\"}}, \"multi\": true}]}"_s
                .arg(collection, list.join(u','))
                .toUtf8());
        const CliRun r = command(u"rollback"_s, collection, {u"--yes"_s});
        QVERIFY2(r.exitCode != 0, qPrintable(r.out + r.err));
        for (qint64 id : unflagged)
            QVERIFY2(QString(r.out + r.err).contains(u"%1: not flagged"_s.arg(id)),
                     qPrintable(r.out + r.err));
        // Their elements are all still there (primary + kept pages); every other document was
        // written back to its original bytes.
        expectNothingLost(collection);
        const auto now = read(collection);
        for (const QByteArray &doc : fixtures::dumpDocuments(m_dump)) {
            const qint64 id = fixtures::numberOf(doc, u"_id"_s);
            if (!unflagged.contains(id))
                QCOMPARE(now.at(fixtures::fieldOf(doc, u"_id"_s)), doc);
        }
    }

    void rollbackRefusesAJournalWhoseFlagFieldWasEdited()
    {
        const QString collection = u"flag_edited"_s;
        importAndSplit(collection);
        const auto pagesBefore = read(collection + u"_overflow"_s);
        QVERIFY(!pagesBefore.empty());
        run(u"{\"update\": \"%1_outlier_migrations\", \"updates\": [{\"q\": {\"_id\": "
            "\"run:%2\"}, \"u\": {\"$set\": {\"config.flagField\": \"bogus\"}}}]}"_s
                .arg(collection, kField)
                .toUtf8());
        const CliRun r = command(u"rollback"_s, collection, {u"--yes"_s});
        QVERIFY2(r.exitCode != 0, qPrintable(r.out + r.err));
        QVERIFY2(QString(r.out + r.err).contains(u"not flagged"_s), qPrintable(r.out + r.err));
        QCOMPARE(read(collection + u"_overflow"_s).size(), pagesBefore.size());
        expectNothingLost(collection);
    }

    void damagedJournalIsRefused_data()
    {
        QTest::addColumn<QString>("damage"); // an update of the journal, in JSON
        QTest::addColumn<QString>("named");  // what the error must name
        QTest::newRow("half the entries deleted")
            << u"{\"delete\": \"%1_outlier_migrations\", \"deletes\": [{\"q\": {\"kind\": "
               "\"document\", \"doc\": {\"$mod\": [2, 0]}}, \"limit\": 0}]}"_s
            << u"document entries of the"_s;
        QTest::newRow("an entry's state")
            << u"{\"update\": \"%1_outlier_migrations\", \"updates\": [{\"q\": {\"kind\": "
               "\"document\"}, \"u\": {\"$set\": {\"state\": \"bogus\"}}}]}"_s
            << u"'bogus'"_s;
        QTest::newRow("keep -5")
            << u"{\"update\": \"%1_outlier_migrations\", \"updates\": [{\"q\": "
               "{\"kind\": \"run\"}, \"u\": {\"$set\": {\"config.keep\": "
               "{\"$numberLong\": \"-5\"}}}}]}"_s
            << u"--keep must be 0 or more"_s;
        QTest::newRow("page size 0")
            << u"{\"update\": \"%1_outlier_migrations\", \"updates\": [{\"q\": {\"kind\": "
               "\"run\"}, \"u\": {\"$set\": {\"config.pageSize\": {\"$numberLong\": \"0\"}}}}]}"_s
            << u"--page-size must be at least 1"_s;
        QTest::newRow("keep as a string")
            << u"{\"update\": \"%1_outlier_migrations\", \"updates\": [{\"q\": {\"kind\": "
               "\"run\"}, \"u\": {\"$set\": {\"config.keep\": \"5\"}}}]}"_s
            << u"config.keep is missing or not an integer"_s;
    }

    void damagedJournalIsRefused()
    {
        QFETCH(QString, damage);
        QFETCH(QString, named);
        const QString collection =
            u"damaged_%1"_s.arg(QString::fromUtf8(QTest::currentDataTag())).replace(u' ', u'_');
        importAndSplit(collection);
        run(damage.arg(collection).toUtf8());
        const auto docs = read(collection);
        const auto pages = read(collection + u"_overflow"_s);
        for (const QString &verb : {u"verify"_s, u"rollback"_s}) {
            const CliRun r = command(
                verb, collection, verb == u"rollback"_s ? QStringList{u"--yes"_s} : QStringList{});
            QVERIFY2(r.exitCode != 0, qPrintable(verb + u": "_s + r.out + r.err));
            QVERIFY2(r.err.contains(u"is damaged"_s) && r.err.contains(named),
                     qPrintable(verb + u": "_s + r.err));
            QCOMPARE(r.err.trimmed().count(u'\n'), 0); // one line
        }
        QVERIFY(read(collection) == docs); // nothing was written back
        QVERIFY(read(collection + u"_overflow"_s) == pages);
    }

    // The activity-feed preset's names (userId, hasOverflow, activityCount, overflowPages) on a
    // collection whose documents hold an int userId of their own (issue 53, defect 10): the
    // pages would name their parent's _id under the application's field: refused in one line
    // naming the field and the option, nothing written; another link name splits.
    void aLayoutFieldTheDocumentsHoldIsRefused()
    {
        const QString collection = u"feed_names"_s;
        CliRun r = runCli(QStringList{u"import"_s} + target(collection) +
                          QStringList{u"--dump"_s, m_dump, u"--drop"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QString ignored; // no overflow collection yet
        fixtures::command(m_uri, kDb, u"{\"drop\": \"%1_overflow\"}"_s.arg(collection).toUtf8(),
                          &ignored);
        run(u"{\"update\": \"%1\", \"updates\": [{\"q\": {}, \"u\": {\"$set\": {\"userId\": "
            "53}}, \"multi\": true}]}"_s.arg(collection)
                .toUtf8());
        const auto before = read(collection);
        const QStringList feed{
            u"--keep"_s,        QString::number(kKeep), u"--link-field"_s,  u"userId"_s,
            u"--flag-field"_s,  u"hasOverflow"_s,       u"--count-field"_s, u"activityCount"_s,
            u"--pages-field"_s, u"overflowPages"_s,     u"--yes"_s};
        r = command(u"split"_s, collection, feed);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"hold a field 'userId' already"_s) &&
                     r.err.contains(u"--link-field"_s) && r.err.trimmed().count(u'\n') == 0,
                 qPrintable(r.err));
        QVERIFY(read(collection) == before);
        QVERIFY(read(collection + u"_overflow"_s).empty());
        QStringList renamed = feed;
        renamed[3] = u"feedOwner"_s;
        r = command(u"split"_s, collection, renamed);
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(!read(collection + u"_overflow"_s).empty());
    }
};

QTEST_GUILESS_MAIN(TestMigrationJournal)
#include "tst_migrationjournal.moc"
