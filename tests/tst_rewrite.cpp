// `outlier-explorer-cli rewrite` (core's RewriteSession) against the real servers: keys used as
// data become an array of {k, v} and a mixed-type field is converted where that is exact, each
// previewed first (every change and every value it cannot rewrite, in the CSV too), journaled,
// verified, and rolled back byte for byte (the collection read back equals the one before);
// values the application rewrote meanwhile are never overwritten, before the rewrite lands or
// after it (mongod: deterministically, in the window between journal and write); killed with
// -9 at random moments it resumes and ends whole, on mongod and FerretDB.
#include "CliRunner.h"
#include "LiveBench.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "RewriteKills.h"
#include "remedy/RewriteSession.h"

#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <bson/bson.h>

namespace {

const QString kDb = QStringLiteral("oe_rewrite");

// A document's field as relaxed extended JSON ("" when it has none).
QString fieldJson(const QByteArray &doc, const char *key)
{
    bson_t d;
    bson_iter_t it;
    if (!bson_init_static(&d, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                          std::size_t(doc.size())) ||
        !bson_iter_init_find(&it, &d, key))
        return {};
    bson_t one = BSON_INITIALIZER;
    bson_append_iter(&one, key, -1, &it);
    char *text = bson_as_relaxed_extended_json(&one, nullptr);
    const QString json = QString::fromUtf8(text);
    bson_free(text);
    bson_destroy(&one);
    return json;
}

} // namespace

class TestRewrite : public QObject, public LiveBench
{
    Q_OBJECT
    QTemporaryDir m_dir;

    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("rewrite"),
                QStringLiteral("--uri"),
                m_uri,
                QStringLiteral("--db"),
                kDb,
                QStringLiteral("--collection"),
                collection};
    }
    // Documents with keys used as data (daily), a mixed-type price and a field both leave alone.
    void makeStats(const QString &collection, int count) const
    {
        run(QStringLiteral("{\"drop\": \"%1\"}").arg(collection));
        run(QStringLiteral("{\"drop\": \"%1_outlier_rewrites\"}").arg(collection));
        QStringList docs;
        for (int i = 0; i < count; ++i) {
            QString price = QStringLiteral("%1.5").arg(i);
            if (i % 10 == 3)
                price = QStringLiteral("\"%1.25\"").arg(i);
            else if (i % 10 == 4)
                price = QStringLiteral("\"n/a\"");
            else if (i % 10 == 5)
                price = QString::number(i);
            docs << QStringLiteral("{\"_id\": %1, \"name\": \"n%1\", \"daily\": {\"2026-11-01\": "
                                   "{\"views\": %1}, \"%3\": %1, \"ключ\": [1, 2]}, \"price\": "
                                   "%2, \"tail\": true}")
                        .arg(i)
                        .arg(price, dottedKey());
        }
        docs << QStringLiteral("{\"_id\": \"plain\", \"daily\": \"none\", \"price\": null}");
        for (qsizetype at = 0; at < docs.size(); at += 500) {
            QString error;
            QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                             .arg(collection, docs.mid(at, 500).join(QLatin1Char(','))),
                         &error),
                     qPrintable(error));
        }
    }
    // A key with a dot (mongod 5.0 and later store one; FerretDB refuses it).
    QString dottedKey() const
    {
        return m_server.isMongod() ? QStringLiteral("x.y") : QStringLiteral("x_y");
    }

public:
    TestRewrite() : LiveBench(kDb) {}

private slots:
    void initTestCase()
    {
        const QString missing = openServer();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // Keys to an array: previewed (nothing written), applied in the object's order (a key with a
    // dot and one in Cyrillic kept as data), the index suggested, verified, and rolled back to
    // the same bytes; a field that is not an object is left alone.
    void keysToArrayRoundTrip()
    {
        const QString c = QStringLiteral("keys");
        makeStats(c, 40);
        const auto before = read(c);
        const QStringList keys =
            target(c) + QStringList{QStringLiteral("--path"), QStringLiteral("daily"),
                                    QStringLiteral("--keys-to-array")};
        CliRun r = runCli(keys);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents whose daily is an object: 40; to "
                                               "rewrite: 40")) &&
                     r.out.contains(QStringLiteral("index suggestion: {\"daily.k\":1}")) &&
                     r.out.contains(QStringLiteral("nothing written")),
                 qPrintable(r.out));
        QVERIFY(read(c) == before);

        r = runCli(keys + QStringList{QStringLiteral("--yes"), QStringLiteral("--batch"),
                                      QStringLiteral("7")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("rewritten: 40; already so: 0")), qPrintable(r.out));
        const auto after = read(c);
        QString seven;
        for (const auto &[id, doc] : after)
            if (fieldJson(doc, "name") == QStringLiteral("{ \"name\" : \"n7\" }"))
                seven = fieldJson(doc, "daily");
        QCOMPARE(seven, QStringLiteral("{ \"daily\" : [ { \"k\" : \"2026-11-01\", \"v\" : { "
                                       "\"views\" : 7 } }, { \"k\" : \"%1\", \"v\" : 7 }, { "
                                       "\"k\" : \"ключ\", \"v\" : [ 1, 2 ] } ] }")
                            .arg(dottedKey()));
        r = runCli(keys + QStringList{QStringLiteral("--verify")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("40 entries (the run recorded "
                                                                  "40); holding the rewrite: 40")),
                 qPrintable(r.out + r.err));
        // Applied already: one line, nothing written.
        r = runCli(keys + QStringList{QStringLiteral("--yes")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("applied already")), qPrintable(r.err));

        r = runCli(keys + QStringList{QStringLiteral("--rollback"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("restored: 40; the "
                                                                  "application's value kept: 0")),
                 qPrintable(r.out + r.err));
        QVERIFY2(read(c) == before, "the collection differs from the one before the rewrite");
    }

    // A conversion previews every value it changes and every one it cannot convert (the CSV has
    // them all), converts only the exact ones, and leaves the rest as they are; a value the
    // application rewrote after the conversion is kept by the rollback, everything else is
    // restored byte for byte.
    void convertListsEveryValueAndKeepsTheApplications()
    {
        const QString c = QStringLiteral("prices");
        makeStats(c, 40);
        const auto before = read(c);
        const QString csv = m_dir.filePath(QStringLiteral("preview.csv"));
        const QStringList convert =
            target(c) + QStringList{QStringLiteral("--path"), QStringLiteral("price"),
                                    QStringLiteral("--convert-to"), QStringLiteral("double")};
        CliRun r = runCli(convert + QStringList{QStringLiteral("--preview-csv"), csv});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        // 4 strings that are numbers and 4 ints change; 4 "n/a" cannot; null is left alone.
        QVERIFY2(r.out.contains(QStringLiteral("documents whose price is not double or null: 12; "
                                               "to rewrite: 8; already so: 0; cannot be "
                                               "rewritten: 4")) &&
                     r.out.contains(QStringLiteral("  _id 3: \"3.25\" -> 3.25\n")) &&
                     r.out.contains(QStringLiteral("  _id 5: 5 -> 5.0\n")) &&
                     r.out.contains(QStringLiteral("  _id 4: cannot: the string \"n/a\" is not a "
                                                   "number\n")),
                 qPrintable(r.out));
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.size(), 1 + 12 + 1); // header, rows, the empty tail after the last CRLF
        QVERIFY(lines.contains(QByteArray("3,change,\"\"\"3.25\"\"\",3.25,\r")));
        QVERIFY(read(c) == before);

        r = runCli(convert + QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 8; already so: 0; "
                                                                  "cannot be rewritten: 4")),
                 qPrintable(r.out + r.err));
        QString error;
        QVERIFY2(run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": 13}, "
                                    "\"u\": {\"$set\": {\"price\": 99.5}}}]}")
                         .arg(c),
                     &error),
                 qPrintable(error));
        r = runCli(convert + QStringList{QStringLiteral("--verify")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten by the application "
                                                                  "since: 1")),
                 qPrintable(r.out + r.err));
        r = runCli(convert + QStringList{QStringLiteral("--rollback"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("restored: 7; the application's value kept: "
                                                   "1")) &&
                     r.out.contains(QStringLiteral("  _id 13: the application rewrote it after "
                                                   "the rewrite: its value is kept")),
                 qPrintable(r.out + r.err));
        auto now = read(c);
        for (const auto &[id, doc] : before) {
            if (fieldJson(doc, "name") == QStringLiteral("{ \"name\" : \"n13\" }"))
                QCOMPARE(fieldJson(now[id], "price"), QStringLiteral("{ \"price\" : 99.5 }"));
            else
                QVERIFY2(now[id] == doc, qPrintable(fieldJson(doc, "name")));
        }
    }

    // The application writes the field of half a round's documents in the window between the
    // journal and the guarded update (mongod: atomic updates): those keep the application's
    // value and are counted; the rest are rewritten; nothing is overwritten.
    void concurrentWritesWin()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB's updates are not atomic: the window is not closed there (said)");
        const QString c = QStringLiteral("racing");
        makeStats(c, 20);
        oe::ConnectionSettings settings;
        settings.uri = m_uri;
        oe::RewriteConfig config;
        config.collection = c;
        config.path = QStringLiteral("daily");
        oe::RewriteSession session(settings, kDb, config);
        oe::RewriteOptions options;
        options.batch = 10;
        int written = 0;
        options.beforeWrite = [&](const std::vector<QByteArray> &ids) {
            for (std::size_t i = 0; i < ids.size(); i += 2) {
                // Raw int32 _ids: the type byte, then four little-endian bytes.
                const qint32 id = qFromLittleEndian<qint32>(ids[i].constData() + 1);
                run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": %2}, "
                                   "\"u\": {\"$set\": {\"daily.app\": 1}}}]}")
                        .arg(c)
                        .arg(id));
                ++written;
            }
        };
        const oe::RewriteStep step = session.apply(options);
        QVERIFY2(step.ok, qPrintable(step.error.message));
        QCOMPARE(written, 10);
        QCOMPARE(step.progress.changedSince, std::uint64_t(10));
        QCOMPARE(step.progress.rewritten, std::uint64_t(10));
        int kept = 0;
        for (const auto &[id, doc] : read(c))
            kept += fieldJson(doc, "daily").contains(QStringLiteral("\"app\" : 1"));
        QCOMPARE(kept, 10); // each still an object, with the application's field
        const oe::RewriteStep verify = session.verify();
        QVERIFY(verify.ok && verify.verify.ok());
        QCOMPARE(verify.verify.matching, std::uint64_t(10));

        // An application turning the value into an array that holds it ({$eq} alone would
        // still match): its array is kept.
        config.path = QStringLiteral("price");
        config.kind = oe::RewriteKind::ConvertType;
        config.targetType = QStringLiteral("double");
        oe::RewriteSession convert(settings, kDb, config);
        options.beforeWrite = [&](const std::vector<QByteArray> &ids) {
            for (const QByteArray &raw : ids) {
                const qint32 id = qFromLittleEndian<qint32>(raw.constData() + 1);
                run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": %2}, "
                                   "\"u\": [{\"$set\": {\"price\": [\"$price\", \"app\"]}}]}]}")
                        .arg(c)
                        .arg(id));
            }
        };
        const oe::RewriteStep converted = convert.apply(options);
        QVERIFY2(converted.ok, qPrintable(converted.error.message));
        QCOMPARE(converted.progress.rewritten, std::uint64_t(0));
        QCOMPARE(converted.progress.changedSince, std::uint64_t(4)); // _ids 3, 5, 13, 15
        int arrays = 0;
        for (const auto &[id, doc] : read(c))
            arrays += fieldJson(doc, "price").contains(QStringLiteral("\"app\" ]"));
        QCOMPARE(arrays, 4);
    }

    // Killed with -9 at random moments (paced, so a fast server is interrupted too), the
    // rewrite resumes and ends whole; so does its rollback, back to the same bytes.
    void killedAndResumed()
    {
        // FerretDB writes a document in tens of milliseconds: fewer documents, the same kills.
        const bool mongod = m_server.isMongod();
        const int count = mongod ? 300 : 80;
        const QString c = QStringLiteral("killed");
        makeStats(c, count);
        const auto before = read(c);
        const QStringList keys =
            target(c) + QStringList{QStringLiteral("--path"), QStringLiteral("daily"),
                                    QStringLiteral("--keys-to-array")};
        const QString failure = fixtures::rewriteSurvivesKills(keys, count, mongod);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY2(read(c) == before, "the collection differs from the one before the rewrite");
    }

    // Keys libmongoc refuses in a replacement but MongoDB stores ("", and on mongod "$x" and
    // "a.b") are data like any other: journaled (each value whole, through a replace), moved,
    // verified and rolled back byte for byte, in rounds of 3 (issue 53, defect 3).
    void keysLibmongocRefusesAreData()
    {
        const QString c = QStringLiteral("empty_keys");
        run(QStringLiteral("{\"drop\": \"%1\"}").arg(c));
        run(QStringLiteral("{\"drop\": \"%1_outlier_rewrites\"}").arg(c));
        QStringList docs;
        for (int i = 0; i < 11; ++i)
            docs << QStringLiteral("{\"_id\": %1, \"daily\": {\"2026-11-01\": %1}}").arg(i);
        docs << (m_server.isMongod()
                     ? QStringLiteral("{\"_id\": 11, \"daily\": {\"2026-11-01\": 6, \"\": 7, "
                                      "\"$x\": 8, \"a.b\": 9}}")
                     : QStringLiteral("{\"_id\": 11, \"daily\": {\"2026-11-01\": 6, \"\": 7}}"));
        QString error;
        QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                         .arg(c, docs.join(QLatin1Char(','))),
                     &error),
                 qPrintable(error));
        const auto before = read(c);
        const QStringList keys =
            target(c) + QStringList{QStringLiteral("--path"), QStringLiteral("daily"),
                                    QStringLiteral("--keys-to-array"), QStringLiteral("--batch"),
                                    QStringLiteral("3")};
        CliRun r = runCli(keys + QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("rewritten: 12")), qPrintable(r.out));
        const QByteArray daily =
            fixtures::fieldOf(read(c).at(before.rbegin()->first), QStringLiteral("daily"));
        QCOMPARE(int(daily.at(0)), int(BSON_TYPE_ARRAY));
        r = runCli(keys + QStringList{QStringLiteral("--verify")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("holding the rewrite: 12")),
                 qPrintable(r.out + r.err));
        r = runCli(keys + QStringList{QStringLiteral("--rollback"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(read(c) == before, "the collection differs from the one before the rewrite");
    }

    // A path no document holds: the apply says so and leaves no run of 0 documents behind
    // (verify then finds none).
    void aMissingFieldLeavesNoRun()
    {
        const QString c = QStringLiteral("missing");
        makeStats(c, 5);
        const QStringList keys =
            target(c) + QStringList{QStringLiteral("--path"), QStringLiteral("nosuch"),
                                    QStringLiteral("--keys-to-array")};
        CliRun r = runCli(keys + QStringList{QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("no document holds nosuch: "
                                                                  "nothing to rewrite")),
                 qPrintable(r.out + r.err));
        QVERIFY(read(c + QStringLiteral("_outlier_rewrites")).empty());
        r = runCli(keys + QStringList{QStringLiteral("--verify")});
        QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("the journal holds no nosuch")),
                 qPrintable(r.err));
    }

    // Bad input: one line each, nothing written.
    void badInputSaysWhere()
    {
        const QString c = QStringLiteral("keys");
        const struct
        {
            QStringList args;
            QString says;
        } cases[] = {
            {{QStringLiteral("--path"), QStringLiteral("price"), QStringLiteral("--convert-to"),
              QStringLiteral("date")},
             QStringLiteral("type 'date': a field converts to double, int, long, string")},
            {{QStringLiteral("--path"), QStringLiteral("$where"),
              QStringLiteral("--keys-to-array")},
             QStringLiteral("field path '$where'")},
            {{QStringLiteral("--path"), QStringLiteral("daily"), QStringLiteral("--keys-to-array"),
              QStringLiteral("--key-name"), QStringLiteral("a.b")},
             QStringLiteral("element field name 'a.b'")},
            {{QStringLiteral("--path"), QStringLiteral("daily")},
             QStringLiteral("rewrite needs one of --keys-to-array, --convert-to TYPE, --extract, "
                            "--gridfs, --attributes and --rename-to NAME")},
            {{QStringLiteral("--path"), QStringLiteral("daily"), QStringLiteral("--keys-to-array"),
              QStringLiteral("--verify")},
             QStringLiteral("the journal holds no daily: keys to an array")},
        };
        run(QStringLiteral("{\"drop\": \"keys_outlier_rewrites\"}"));
        for (const auto &bad : cases) {
            const CliRun r = runCli(target(c) + bad.args);
            QVERIFY2(r.exitCode == 2 && r.err.contains(bad.says) &&
                         r.err.trimmed().count(QLatin1Char('\n')) == 0,
                     qPrintable(r.err));
        }
    }
};

QTEST_GUILESS_MAIN(TestRewrite)
#include "tst_rewrite.moc"
