// `outlier-explorer-cli rewrite --extract` (the subset pattern, core's RewriteSession) against
// the real servers: a big string, binary or sub-document moves to a side collection keyed by its
// document's _id; the document keeps an excerpt of the same type in the field's place and a
// flag. Previewed first, journaled, verified, killed with -9 and resumed, and rolled back byte
// for byte (the side collection emptied); a side collection holding other data is refused; a
// 15.9 MiB binary makes the round trip; the application's writes win, before the extraction
// lands (mongod: in the window between journal and write) and after it (the rollback keeps the
// application's value, and the extracted one stays in the side collection).
#include "CliRunner.h"
#include "KillTrials.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "remedy/RewriteSession.h"

#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

namespace {

const QString kDb = QStringLiteral("oe_extract");

// A text of `chars` characters, two bytes each in UTF-8 but the first ("жж…ж").
QString text(int chars, int seed)
{
    QString out = QString::number(seed % 10);
    out += QString(chars - 1, QChar(0x436));
    return out;
}

} // namespace

class TestExtract : public QObject
{
    Q_OBJECT

    fixtures::LiveServer m_server;
    QString m_uri;

    bool run(const QString &command, QString *error = nullptr) const
    {
        QString ignored;
        return fixtures::command(m_uri, kDb, command.toUtf8(), error ? error : &ignored);
    }
    QStringList bare(const QString &collection) const
    {
        return {QStringLiteral("rewrite"),
                QStringLiteral("--uri"),
                m_uri,
                QStringLiteral("--db"),
                kDb,
                QStringLiteral("--collection"),
                collection,
                QStringLiteral("--path"),
                QStringLiteral("body"),
                QStringLiteral("--extract")};
    }
    QStringList extract(const QString &collection, const QStringList &more = {}) const
    {
        return bare(collection) +
               QStringList{QStringLiteral("--min-bytes"), QStringLiteral("1000"),
                           QStringLiteral("--excerpt-chars"), QStringLiteral("5")} +
               more;
    }
    void drop(const QString &collection) const
    {
        for (const QString &name :
             QStringList{collection, collection + QStringLiteral("_outlier_rewrites"),
                         collection + QStringLiteral("_body_full")})
            run(QStringLiteral("{\"drop\": \"%1\"}").arg(name));
    }
    // Posts: every third one has a body of 1000 characters (about 2 KB), the rest short ones;
    // one body is an array and one a number (listed, left alone); the field sits in the
    // middle of each document, so a rollback must put it back in its place.
    void makePosts(const QString &collection, int count) const
    {
        drop(collection);
        QStringList docs;
        for (int i = 0; i < count; ++i)
            docs << QStringLiteral("{\"_id\": %1, \"title\": \"t%1\", \"body\": \"%2\", "
                                   "\"likes\": %1}")
                        .arg(i)
                        .arg(text(i % 3 == 0 ? 1000 : 20, i));
        docs << QStringLiteral("{\"_id\": \"list\", \"body\": [\"%1\"]}").arg(text(1000, 1))
             << QStringLiteral("{\"_id\": \"number\", \"body\": 12}");
        for (qsizetype at = 0; at < docs.size(); at += 200) {
            QString error;
            QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [%2]}")
                             .arg(collection, docs.mid(at, 200).join(QLatin1Char(','))),
                         &error),
                     qPrintable(error));
        }
    }
    std::map<QByteArray, QByteArray> read(const QString &collection) const
    {
        return fixtures::readCollection(m_uri, kDb, collection);
    }
    // The raw _id of an int.
    static QByteArray intId(qint32 id)
    {
        QByteArray raw(1, char(BSON_TYPE_INT32));
        raw.append(reinterpret_cast<const char *>(&id), 4); // little-endian machines
        return raw;
    }
    static QString textOf(const QByteArray &doc, const QString &key)
    {
        const QByteArray raw = fixtures::fieldOf(doc, key);
        if (raw.size() < 6 || raw.at(0) != char(BSON_TYPE_UTF8))
            return {};
        return QString::fromUtf8(raw.mid(5, raw.size() - 6));
    }

private slots:
    void initTestCase()
    {
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
    }

    // Previewed (nothing written), applied (the side collection holds each big body whole, the
    // post its first 5 characters and the flag), verified, and rolled back to the same bytes,
    // the side collection empty again.
    void roundTrip()
    {
        const QString c = QStringLiteral("posts");
        makePosts(c, 30);
        const auto before = read(c);
        CliRun r = runCli(extract(c));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("documents whose body is there (without "
                                               "has_full_body): 32; to rewrite: 10; already so: "
                                               "20; cannot be rewritten: 2")) &&
                     r.out.contains(QStringLiteral("_id \"list\": cannot: an array: the outlier "
                                                   "pattern's split moves its elements")) &&
                     r.out.contains(QStringLiteral("each value moves to posts_body_full as {_id, "
                                                   "body}")) &&
                     // 10 bodies of 1 + 999 * 2 bytes of text (a value: 1 + 4 + text + 1) to
                     // excerpts of 1 + 4 * 2 bytes
                     r.out.contains(QStringLiteral("the values rewritten: 20050 bytes now, 150 "
                                                   "bytes after (19900 bytes out of the "
                                                   "documents)")),
                 qPrintable(r.out));
        QVERIFY(read(c) == before);
        const QString predicted = r.out;

        r = runCli(
            extract(c, {QStringLiteral("--yes"), QStringLiteral("--batch"), QStringLiteral("4")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 10; already so: "
                                                                  "20; cannot be rewritten: 2")),
                 qPrintable(r.out + r.err));
        const auto after = read(c);
        const auto side = read(QStringLiteral("posts_body_full"));
        QCOMPARE(side.size(), std::size_t(10));
        for (int i = 0; i < 30; i += 3) {
            const QByteArray id = intId(i);
            QCOMPARE(fixtures::fieldOf(side.at(id), QStringLiteral("body")),
                     fixtures::fieldOf(before.at(id), QStringLiteral("body")));
            QCOMPARE(textOf(after.at(id), QStringLiteral("body")), text(5, i));
            QCOMPARE(fixtures::fieldOf(after.at(id), QStringLiteral("has_full_body")),
                     QByteArray("\x08\x01", 2));
        }
        QVERIFY(after.at(intId(1)) == before.at(intId(1))); // a short body stays whole
        // The preview's sizes after (measured on mongod, read whole on FerretDB) are the sizes
        // the documents have now, in bytes.
        const auto sizes = [](const std::map<QByteArray, QByteArray> &docs) {
            qsizetype largest = 0, total = 0;
            for (const auto &[id, doc] : docs) {
                largest = std::max(largest, doc.size());
                total += doc.size();
            }
            return std::pair{largest, total};
        };
        const auto [largestBefore, totalBefore] = sizes(before);
        const auto [largestAfter, totalAfter] = sizes(after);
        QVERIFY(totalAfter < totalBefore);
        QVERIFY2(predicted.contains(QStringLiteral("the 32 documents' sizes: largest %1 bytes now, "
                                                   "%2 bytes after; in all %3 bytes now, %4 "
                                                   "bytes after")
                                        .arg(largestBefore)
                                        .arg(largestAfter)
                                        .arg(totalBefore)
                                        .arg(totalAfter)),
                 qPrintable(predicted));
        r = runCli(extract(c, {QStringLiteral("--verify")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("10 entries (the run recorded "
                                                                  "10); holding the rewrite: 10")),
                 qPrintable(r.out + r.err));

        // A side document lost is a mismatch verify names.
        QVERIFY(run(QStringLiteral("{\"delete\": \"posts_body_full\", \"deletes\": [{\"q\": "
                                   "{\"_id\": 3}, \"limit\": 1}]}")));
        r = runCli(extract(c, {QStringLiteral("--verify")}));
        QVERIFY2(r.exitCode == 4 && r.out.contains(QStringLiteral("_id 3: the side collection "
                                                                  "posts_body_full does not hold "
                                                                  "its value")),
                 qPrintable(QString::number(r.exitCode) + r.out + r.err));

        // Only a rolled-back run is forgotten.
        r = runCli(extract(c, {QStringLiteral("--forget")}));
        QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("only a rolled-back run is "
                                                                  "forgotten")),
                 qPrintable(r.err));

        r = runCli(extract(c, {QStringLiteral("--rollback"), QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("restored: 10")),
                 qPrintable(r.out + r.err));
        QVERIFY2(read(c) == before, "the collection differs from the one before the extraction");
        QCOMPARE(read(QStringLiteral("posts_body_full")).size(), std::size_t(0));
        // What stays is said, and --forget tidies it: the run and its entries, the empty side
        // collection; the collection itself as it was.
        QVERIFY2(r.out.contains(QStringLiteral("the journal posts_outlier_rewrites keeps this "
                                               "run, rolled back")) &&
                     r.out.contains(QStringLiteral("the side collection posts_body_full is "
                                                   "empty: --forget drops it")),
                 qPrintable(r.out));
        r = runCli(extract(c, {QStringLiteral("--forget")}));
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("the run and its entries removed from "
                                                   "posts_outlier_rewrites")) &&
                     r.out.contains(QStringLiteral("the empty side collection posts_body_full "
                                                   "dropped")),
                 qPrintable(r.out + r.err));
        QVERIFY(!fixtures::collectionExists(m_uri, kDb, QStringLiteral("posts_body_full")));
        QVERIFY(read(QStringLiteral("posts_outlier_rewrites")).empty());
        QVERIFY(read(c) == before);
        r = runCli(extract(c, {QStringLiteral("--forget")}));
        QVERIFY2(r.exitCode == 2 && r.err.contains(QStringLiteral("the journal holds no body")),
                 qPrintable(r.err));
    }

    // A side collection that holds anything already is refused in one line, nothing written.
    void foreignSideCollectionRefused()
    {
        const QString c = QStringLiteral("shared");
        makePosts(c, 6);
        const auto before = read(c);
        QVERIFY(run(QStringLiteral("{\"insert\": \"elsewhere\", \"documents\": [{\"_id\": 0, "
                                   "\"body\": \"not ours\"}]}")));
        const CliRun r = runCli(extract(
            c, {QStringLiteral("--side"), QStringLiteral("elsewhere"), QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 2 &&
                     r.err.contains(QStringLiteral("the side collection elsewhere "
                                                   "holds 1 documents already")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.out + r.err));
        QVERIFY(read(c) == before);
        QCOMPARE(read(QStringLiteral("elsewhere")).size(), std::size_t(1));
        run(QStringLiteral("{\"drop\": \"elsewhere\"}"));
    }

    // A 15.9 MiB binary (a document near the 16 MiB limit) moves whole, its document keeps an
    // empty binary of its subtype, and the rollback puts back the same bytes.
    void binaryOf15Point9MiB()
    {
        const QString c = QStringLiteral("files");
        drop(c);
        const int size = int(15.9 * 1024 * 1024);
        QByteArray data(size, '\0');
        for (int i = 0; i < size; ++i)
            data[i] = char((quint32(i) * 7919u) >> 3);
        QString error;
        QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": 1, \"name\": "
                                    "\"scan.pdf\", \"body\": {\"$binary\": {\"base64\": \"%2\", "
                                    "\"subType\": \"05\"}}, \"size\": %3}]}")
                         .arg(c, QString::fromLatin1(data.toBase64()))
                         .arg(size),
                     &error),
                 qPrintable(error));
        const auto before = read(c);
        QCOMPARE(before.size(), std::size_t(1));
        CliRun r = runCli(extract(c, {QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 1;")),
                 qPrintable(r.out + r.err));
        const auto side = read(QStringLiteral("files_body_full"));
        QCOMPARE(side.size(), std::size_t(1));
        const QByteArray stored = fixtures::fieldOf(side.begin()->second, QStringLiteral("body"));
        QCOMPARE(stored, fixtures::fieldOf(before.begin()->second, QStringLiteral("body")));
        QCOMPARE(stored.size(), 1 + 4 + 1 + size);
        // An empty binary of subtype 5: length 0, then the subtype.
        QCOMPARE(fixtures::fieldOf(read(c).begin()->second, QStringLiteral("body")),
                 QByteArray("\x05\x00\x00\x00\x00\x05", 6));
        r = runCli(extract(c, {QStringLiteral("--verify")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        r = runCli(extract(c, {QStringLiteral("--rollback"), QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(read(c) == before, "the 15.9 MiB document differs after the rollback");
        drop(c);
    }

    // The application writes half a round's bodies in the window between the journal (and the
    // side collection) and the guarded update: those keep its value and leave no side document;
    // a body rewritten after the extraction is kept by the rollback, its extracted value left in
    // the side collection, listed.
    void theApplicationsWritesWin()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB's updates are not atomic: the window is not closed there (said)");
        const QString c = QStringLiteral("racing");
        makePosts(c, 24); // 8 big bodies: _ids 0, 3, ..., 21
        oe::ConnectionSettings settings;
        settings.uri = m_uri;
        oe::RewriteConfig config;
        config.collection = c;
        config.kind = oe::RewriteKind::Extract;
        config.path = QStringLiteral("body");
        config.minBytes = 1000;
        oe::RewriteSession session(settings, kDb, config);
        oe::RewriteOptions options;
        options.batch = 100;
        options.beforeWrite = [&](const std::vector<QByteArray> &ids) {
            for (std::size_t i = 0; i < ids.size(); i += 2)
                run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": %2}, "
                                   "\"u\": {\"$set\": {\"body\": \"edited\"}}}]}")
                        .arg(c)
                        .arg(qFromLittleEndian<qint32>(ids[i].constData() + 1)));
        };
        const oe::RewriteStep step = session.apply(options);
        QVERIFY2(step.ok, qPrintable(step.error.message));
        QCOMPARE(step.progress.changedSince, std::uint64_t(4));
        QCOMPARE(step.progress.rewritten, std::uint64_t(4));
        const auto side = read(QStringLiteral("racing_body_full"));
        QCOMPARE(side.size(), std::size_t(4));
        int edited = 0;
        for (const auto &[id, doc] : read(c))
            edited += textOf(doc, QStringLiteral("body")) == QStringLiteral("edited") &&
                      fixtures::fieldOf(doc, QStringLiteral("has_full_body")).isEmpty() &&
                      side.count(id) == 0;
        QCOMPARE(edited, 4);

        const QByteArray kept = side.begin()->first;
        const qint32 keptId = qFromLittleEndian<qint32>(kept.constData() + 1);
        QVERIFY(run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": %2}, "
                                   "\"u\": {\"$set\": {\"body\": \"rewritten later\"}}}]}")
                        .arg(c)
                        .arg(keptId)));
        const oe::RewriteStep back = session.rollback(options);
        QVERIFY2(back.ok, qPrintable(back.error.message));
        QCOMPARE(back.progress.rewritten, std::uint64_t(3));
        QCOMPARE(back.progress.changedSince, std::uint64_t(1));
        QVERIFY(back.progress.rows.at(0).why.contains(QStringLiteral("stays in the side")));
        const auto left = read(QStringLiteral("racing_body_full"));
        QCOMPARE(left.size(), std::size_t(1));
        QCOMPARE(left.begin()->first, kept);
        QCOMPARE(textOf(read(c).at(kept), QStringLiteral("body")),
                 QStringLiteral("rewritten later"));
    }

    // Killed with -9 at random moments (paced, so a fast server is interrupted too), the
    // extraction resumes and ends whole; its rollback puts back the same bytes.
    void killedAndResumed()
    {
        const bool mongod = m_server.isMongod();
        const QString c = QStringLiteral("killed");
        makePosts(c, mongod ? 240 : 60);
        const auto before = read(c);
        const QStringList paced{QStringLiteral("--yes"), QStringLiteral("--batch"),
                                mongod ? QStringLiteral("10") : QStringLiteral("4"),
                                QStringLiteral("--max-docs-per-sec"),
                                mongod ? QStringLiteral("100") : QStringLiteral("25")};
        // A resumed run on FerretDB waits a settling time for the killed one: one kill there.
        const int kills = mongod ? 3 : 1;
        const KillTrials trials =
            KillTrials::run(qEnvironmentVariable("OE_CLI"), extract(c, paced), kills);
        QCOMPARE(trials.killed, kills);
        CliRun r = runCli(extract(c, {QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resuming an interrupted")),
                 qPrintable(r.out + r.err));
        const int big = mongod ? 80 : 20;
        r = runCli(extract(c, {QStringLiteral("--verify")}));
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("%1 entries (the run recorded %1); holding the "
                                                   "rewrite: %1;")
                                        .arg(big)),
                 qPrintable(r.out + r.err));
        QCOMPARE(read(QStringLiteral("killed_body_full")).size(), std::size_t(big));
        r = runCli(extract(c, {QStringLiteral("--rollback"), QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY2(read(c) == before, "the collection differs from the one before the extraction");
        QCOMPARE(read(QStringLiteral("killed_body_full")).size(), std::size_t(0));
    }

    // A killed run's entries left pending, each in a state the run could not see: an update
    // that landed and whose excerpt the application edited before the run marked it (the flag
    // is set: its side value is the one the document points to, kept by the resume and by the
    // rollback), and one that never landed before the application wrote its own value (no
    // flag: the rollback takes its side value away).
    void aKilledRunsEntriesSettle()
    {
        const QString c = QStringLiteral("settling");
        const QString side = QStringLiteral("settling_body_full");
        makePosts(c, 12); // big bodies: _ids 0, 3, 6, 9
        CliRun r = runCli(extract(c, {QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 4;")),
                 qPrintable(r.out + r.err));
        const auto killed = [&]() {
            return run(QStringLiteral(
                           "{\"update\": \"%1_outlier_rewrites\", \"updates\": ["
                           "{\"q\": {\"_id\": \"run:extract:body\"}, \"u\": {\"$set\": "
                           "{\"state\": \"applying\"}}}, {\"q\": {\"_id.run\": \"extract:body\"}, "
                           "\"u\": {\"$set\": {\"state\": \"pending\"}}, \"multi\": true}]}")
                           .arg(c));
        };
        QVERIFY(killed());
        QVERIFY(run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": 0}, "
                                   "\"u\": {\"$set\": {\"body\": \"edited excerpt\"}}}]}")
                        .arg(c)));
        r = runCli(extract(c, {QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resuming an interrupted")) &&
                     r.out.contains(QStringLiteral("rewritten: 4;")),
                 qPrintable(r.out + r.err));
        QCOMPARE(read(side).size(), std::size_t(4));

        QVERIFY(killed());
        QVERIFY(run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": 3}, "
                                   "\"u\": {\"$set\": {\"body\": \"its own\"}, \"$unset\": "
                                   "{\"has_full_body\": \"\"}}}]}")
                        .arg(c)));
        r = runCli(extract(c, {QStringLiteral("--rollback"), QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("restored: 2;")),
                 qPrintable(r.out + r.err));
        const auto left = read(side);
        QCOMPARE(left.size(), std::size_t(1));
        QCOMPARE(left.begin()->first, intId(0));
        const auto docs = read(c);
        QCOMPARE(textOf(docs.at(intId(0)), QStringLiteral("body")),
                 QStringLiteral("edited excerpt"));
        QVERIFY(!fixtures::fieldOf(docs.at(intId(0)), QStringLiteral("has_full_body")).isEmpty());
        QCOMPARE(textOf(docs.at(intId(3)), QStringLiteral("body")), QStringLiteral("its own"));
        drop(c);
    }

    // Bad names: one line each, nothing written.
    void badInputSaysWhere()
    {
        const struct
        {
            QStringList args;
            QString says;
        } cases[] = {
            {{QStringLiteral("--side"), QStringLiteral("a$b")}, QStringLiteral("side collection")},
            {{QStringLiteral("--side"), QStringLiteral("posts")},
             QStringLiteral("the side collection 'posts' is the collection")},
            {{QStringLiteral("--flag"), QStringLiteral("a.b")}, QStringLiteral("flag field 'a.b'")},
            {{QStringLiteral("--flag"), QStringLiteral("body")},
             QStringLiteral("flag field 'body' collides")},
            {{QStringLiteral("--excerpt-chars"), QStringLiteral("-3")},
             QStringLiteral("--excerpt-chars: '-3' is not a count")},
            {{QStringLiteral("--excerpt-keys"), QStringLiteral("a,$b")},
             QStringLiteral("excerpt key '$b'")},
        };
        for (const auto &bad : cases) {
            const CliRun r = runCli(bare(QStringLiteral("posts")) + bad.args);
            QVERIFY2(r.exitCode == 2 && r.err.contains(bad.says) &&
                         r.err.trimmed().count(QLatin1Char('\n')) == 0,
                     qPrintable(bad.says + QStringLiteral(": ") + r.err));
        }
    }
};

QTEST_GUILESS_MAIN(TestExtract)
#include "tst_extract.moc"
