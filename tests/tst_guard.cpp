// `outlier-explorer-cli guard` against the real servers: on mongod the guard is merged with the
// collection's own validator (never replacing it), counts the documents over it before
// anything changes, refuses a naive $push past KEEP under --action error while leaving the
// documents already over alone (moderate), and --remove puts the previous options back byte for
// byte. On FerretDB (no validators) it says so in one line and changes nothing.
#include "CliRunner.h"
#include "LiveDocuments.h"
#include "LiveServer.h"

#include <QtTest>

#include <bson/bson.h>

namespace {

const QString kDb = QStringLiteral("oe_guard");

QByteArray json(const QString &text)
{
    return text.toUtf8();
}

} // namespace

class TestGuard : public QObject
{
    Q_OBJECT

    fixtures::LiveServer m_server;
    QString m_uri;

    CliRun guard(const QString &collection, const QStringList &more) const
    {
        return runCli(QStringList{QStringLiteral("guard"), QStringLiteral("--uri"), m_uri,
                                  QStringLiteral("--db"), kDb, QStringLiteral("--collection"),
                                  collection} +
                      more);
    }
    static QStringList layout(int keep)
    {
        return {QStringLiteral("--field"), QStringLiteral("comments"), QStringLiteral("--keep"),
                QString::number(keep)};
    }
    bool run(const QString &command, QString *error = nullptr) const
    {
        QString ignored;
        return fixtures::command(m_uri, kDb, json(command), error ? error : &ignored);
    }
    // The server refused the write for the validator (code 121, "Document failed validation").
    bool refused(const QString &command) const
    {
        QString error;
        QByteArray reply;
        return !fixtures::command(m_uri, kDb, json(command), &error, &reply) &&
               reply.contains("Document failed validation");
    }
    // The collection's options as listCollections returns them (BSON bytes).
    QByteArray optionsOf(const QString &collection) const
    {
        QString error;
        QByteArray reply;
        if (!fixtures::command(m_uri, kDb,
                               json(QStringLiteral("{\"listCollections\": 1, \"filter\": "
                                                   "{\"name\": \"%1\"}}")
                                        .arg(collection)),
                               &error, &reply))
            return {};
        bson_t doc;
        bson_iter_t it, found;
        if (!bson_init_static(&doc, reinterpret_cast<const std::uint8_t *>(reply.constData()),
                              std::size_t(reply.size())) ||
            !bson_iter_init(&it, &doc) ||
            !bson_iter_find_descendant(&it, "cursor.firstBatch.0.options", &found))
            return {};
        std::uint32_t length = 0;
        const std::uint8_t *data = nullptr;
        bson_iter_document(&found, &length, &data);
        return QByteArray(reinterpret_cast<const char *>(data), qsizetype(length));
    }
    QString pushTo(const QString &collection, const QString &id, int elements) const
    {
        QStringList items;
        for (int i = 0; i < elements; ++i)
            items << QStringLiteral("{\"n\": %1}").arg(100 + i);
        return QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": \"%2\"}, "
                              "\"u\": {\"$push\": {\"comments\": {\"$each\": [%3]}}}}]}")
            .arg(collection, id, items.join(QLatin1Char(',')));
    }
    void makeCollection(const QString &collection, const QString &validator) const
    {
        run(QStringLiteral("{\"drop\": \"%1\"}").arg(collection));
        QString error;
        QVERIFY2(run(QStringLiteral("{\"create\": \"%1\"%2}")
                         .arg(collection, validator.isEmpty()
                                              ? QString()
                                              : QStringLiteral(", \"validator\": %1, "
                                                               "\"validationLevel\": \"strict\", "
                                                               "\"validationAction\": \"error\"")
                                                    .arg(validator)),
                     &error),
                 qPrintable(error));
        // A split (3 kept, flagged), a small one, and an outlier nobody split yet.
        QVERIFY2(
            run(QStringLiteral(
                    "{\"insert\": \"%1\", \"documents\": ["
                    "{\"_id\": \"A\", \"title\": \"a\", \"has_extras\": true, \"comments\": "
                    "[{\"n\": 1}, {\"n\": 2}, {\"n\": 3}]},"
                    "{\"_id\": \"B\", \"title\": \"b\", \"comments\": [{\"n\": 1}]},"
                    "{\"_id\": \"C\", \"title\": \"c\", \"comments\": [{\"n\": 1}, {\"n\": 2}, "
                    "{\"n\": 3}, {\"n\": 4}, {\"n\": 5}, {\"n\": 6}]}]}")
                    .arg(collection),
                &error),
            qPrintable(error));
    }

private slots:
    void initTestCase()
    {
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
    }

    // The collection's own validator stays (under $and), the count comes first, the dry run
    // changes nothing, and --remove restores the options byte for byte.
    void mergesEnforcesAndRestores()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's (FerretDB: see ferretDbSaysSoInOneLine)");
        const QString c = QStringLiteral("reviews");
        makeCollection(c, QStringLiteral("{\"title\": {\"$type\": \"string\"}}"));
        const QByteArray original = optionsOf(c);
        QVERIFY(!original.isEmpty());

        CliRun r =
            guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error"),
                                             QStringLiteral("--dry-run")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents over the guard now: 1 ")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("\"$and\"")) &&
                     r.out.contains(QStringLiteral("\"maxItems\" : 3")) &&
                     r.out.contains(QStringLiteral("\"validationLevel\" : \"moderate\"")),
                 qPrintable(r.out));
        QVERIFY(optionsOf(c) == original); // a dry run changes nothing

        r = guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QString error;
        QVERIFY(refused(pushTo(c, QStringLiteral("B"), 3)));                         // 4 > 3
        QVERIFY2(run(pushTo(c, QStringLiteral("B"), 2), &error), qPrintable(error)); // 3
        // The outlier already over it is left alone (moderate) until it is split.
        QVERIFY2(run(pushTo(c, QStringLiteral("C"), 1), &error), qPrintable(error));
        // The collection's own rule still holds, and so does the flag's type.
        QVERIFY(refused(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"D\", "
                                       "\"title\": 7}]}")
                            .arg(c)));
        QVERIFY(
            refused(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": \"B\"}, "
                                   "\"u\": {\"$set\": {\"has_extras\": \"yes\"}}}]}")
                        .arg(c)));

        // Applied again (warn): it replaces its own guard, keeps the first record of what was
        // there, and the server takes the write (and logs it).
        r = guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("warn")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("a guard is in place already")), qPrintable(r.out));
        QVERIFY2(run(pushTo(c, QStringLiteral("A"), 1), &error), qPrintable(error));

        r = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(optionsOf(c) == original, "the options differ from the original bytes");
        QVERIFY(
            !fixtures::collectionExists(m_uri, kDb, QStringLiteral("outlier_explorer_guards")) ||
            fixtures::readCollection(m_uri, kDb, QStringLiteral("outlier_explorer_guards"))
                .empty());
        // Removing twice: one line, usage error.
        r = guard(c, {QStringLiteral("--remove")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("has no guard of Outlier Explorer")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
    }

    // A split, guarded with --action error, rolled back: the rollback lifts the guard first (the
    // restored arrays are longer than KEEP), says so, and leaves the options as they were.
    void rollbackLiftsTheGuard()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("threads");
        makeCollection(c, QStringLiteral("{\"title\": {\"$type\": \"string\"}}"));
        const QByteArray original = optionsOf(c);
        const auto before = fixtures::readCollection(m_uri, kDb, c);
        const QStringList target = {QStringLiteral("--uri"),        m_uri,
                                    QStringLiteral("--db"),         kDb,
                                    QStringLiteral("--collection"), c};
        CliRun r = runCli(QStringList{QStringLiteral("split")} + target + layout(3) +
                          QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = guard(c, layout(3) + QStringList{QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents over the guard now: 0")),
                 qPrintable(r.out)); // the split brought C under it
        QVERIFY(optionsOf(c) != original);

        r = runCli(QStringList{QStringLiteral("rollback")} + target +
                   QStringList{QStringLiteral("--field"), QStringLiteral("comments"),
                               QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err + r.out));
        QVERIFY2(r.out.contains(QStringLiteral("note: the guard on threads was removed")),
                 qPrintable(r.out));
        QVERIFY(fixtures::readCollection(m_uri, kDb, c) == before);
        QVERIFY2(optionsOf(c) == original, "the options differ from the original bytes");
    }

    // A collection without a validator: the guard alone; removed, no rule is left.
    void withoutAValidatorNoneIsLeft()
    {
        if (!m_server.isMongod())
            QSKIP("validators are mongod's");
        const QString c = QStringLiteral("feeds");
        makeCollection(c, {});
        CliRun r =
            guard(c, layout(2) + QStringList{QStringLiteral("--action"), QStringLiteral("error")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("existing validator: none")) &&
                     !r.out.contains(QStringLiteral("$and")) &&
                     r.out.contains(QStringLiteral("documents over the guard now: 2")),
                 qPrintable(r.out));
        QString error;
        QVERIFY(refused(pushTo(c, QStringLiteral("B"), 2)));
        r = guard(c, {QStringLiteral("--remove")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(run(pushTo(c, QStringLiteral("B"), 20), &error), qPrintable(error));
        bson_t options;
        const QByteArray bytes = optionsOf(c);
        QVERIFY(bson_init_static(&options,
                                 reinterpret_cast<const std::uint8_t *>(bytes.constData()),
                                 std::size_t(bytes.size())));
        bson_iter_t it;
        if (bson_iter_init_find(&it, &options, "validator")) {
            std::uint32_t length = 0;
            const std::uint8_t *data = nullptr;
            bson_iter_document(&it, &length, &data);
            QCOMPARE(length, std::uint32_t(5)); // {}
        }
    }

    // FerretDB has no validators: one line, exit 2, nothing written.
    void ferretDbSaysSoInOneLine()
    {
        if (!m_server.isFerretDb())
            QSKIP("FerretDB only");
        const QString c = QStringLiteral("posts");
        makeCollection(c, {});
        const CliRun r = guard(c, layout(2));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no $jsonSchema validators")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
        QVERIFY(!fixtures::collectionExists(m_uri, kDb, QStringLiteral("outlier_explorer_guards")));
        QString error;
        QVERIFY2(run(pushTo(c, QStringLiteral("B"), 5), &error), qPrintable(error));
    }
};

QTEST_MAIN(TestGuard)
#include "tst_guard.moc"
