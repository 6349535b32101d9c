// `outlier-explorer-cli rewrite --gridfs` (core's RewriteSession over libmongoc's GridFS bucket)
// against the real servers: each big binary becomes a file of a real GridFS bucket, which
// PyMongo's own `gridfs` reads back byte for byte (a 15.9 MiB one too); the document keeps the
// file's _id in the field's place. A foreign file in the bucket is never touched. Verified,
// killed with -9 and resumed, rolled back to the same bytes with the files removed; the
// application's writes win (mongod: in the window between journal and write).
#include "CliRunner.h"
#include "KillTrials.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "remedy/RewriteSession.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtEndian>
#include <QtTest>

namespace {

const QString kDb = QStringLiteral("oe_gridfs");

// Reads every file of the bucket with PyMongo's gridfs: {"<file _id hex>": {"sha256": ...,
// "parent": <metadata.parent as JSON>, "name": ...}}.
const char *kReader = R"(
import hashlib, json, sys
import gridfs, pymongo
from bson import json_util
client = pymongo.MongoClient(sys.argv[1])
bucket = gridfs.GridFSBucket(client[sys.argv[2]], bucket_name=sys.argv[3])
out = {}
for f in bucket.find({}):
    data = bucket.open_download_stream(f._id).read()
    meta = f.metadata or {}
    out[str(f._id)] = {"sha256": hashlib.sha256(data).hexdigest(), "length": len(data),
                       "parent": json_util.dumps(meta.get("parent")), "name": f.filename}
print(json.dumps(out))
)";

// Puts a file nobody else owns into the bucket, with PyMongo.
const char *kForeign = R"(
import sys
import gridfs, pymongo
client = pymongo.MongoClient(sys.argv[1])
bucket = gridfs.GridFSBucket(client[sys.argv[2]], bucket_name=sys.argv[3])
bucket.upload_from_stream_with_id("foreign-1", "someone else's.pdf", b"%PDF not ours" * 1000)
)";

QByteArray payload(int size, int seed)
{
    QByteArray data(size, '\0');
    for (int i = 0; i < size; ++i)
        data[i] = char((quint32(i) * 2654435761u + quint32(seed)) >> 24);
    return data;
}

} // namespace

class TestGridFs : public QObject
{
    Q_OBJECT

    fixtures::LiveServer m_server;
    QString m_uri, m_python;

    bool run(const QString &command, QString *error = nullptr) const
    {
        QString ignored;
        return fixtures::command(m_uri, kDb, command.toUtf8(), error ? error : &ignored);
    }
    QStringList gridfs(const QString &collection, const QString &bucket,
                       const QStringList &more = {}) const
    {
        return QStringList{QStringLiteral("rewrite"),
                           QStringLiteral("--uri"),
                           m_uri,
                           QStringLiteral("--db"),
                           kDb,
                           QStringLiteral("--collection"),
                           collection,
                           QStringLiteral("--path"),
                           QStringLiteral("scan"),
                           QStringLiteral("--gridfs"),
                           QStringLiteral("--bucket"),
                           bucket,
                           QStringLiteral("--min-bytes"),
                           QStringLiteral("100000")} +
               more;
    }
    QString python(const char *script, const QString &bucket) const
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PYTHONPATH"), m_python);
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("python3"),
                {QStringLiteral("-c"), QString::fromUtf8(script), m_uri, kDb, bucket});
        if (!p.waitForFinished(120000) || p.exitCode() != 0)
            return QStringLiteral("error: ") + QString::fromUtf8(p.readAllStandardError());
        return QString::fromUtf8(p.readAllStandardOutput());
    }
    QJsonObject filesOf(const QString &bucket) const
    {
        return QJsonDocument::fromJson(python(kReader, bucket).toUtf8()).object();
    }
    void drop(const QString &collection, const QString &bucket) const
    {
        for (const QString &name :
             QStringList{collection, collection + QStringLiteral("_outlier_rewrites"),
                         bucket + QStringLiteral(".files"), bucket + QStringLiteral(".chunks")})
            run(QStringLiteral("{\"drop\": \"%1\"}").arg(name));
    }
    // Scans: every third document holds a binary of 150 KB (the files to be), the rest one of
    // 2 KB; one holds a string of 150 KB (not moved without --strings: listed).
    void makeScans(const QString &collection, const QString &bucket, int count,
                   int bigBytes = 150000) const
    {
        drop(collection, bucket);
        for (int i = 0; i < count; ++i) {
            QString error;
            const QByteArray data = payload(i % 3 == 0 ? bigBytes : 2000, i);
            QVERIFY2(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": %2, "
                                        "\"name\": \"s%2\", \"scan\": {\"$binary\": {\"base64\": "
                                        "\"%3\", \"subType\": \"00\"}}, \"pages\": %2}]}")
                             .arg(collection)
                             .arg(i)
                             .arg(QString::fromLatin1(data.toBase64())),
                         &error),
                     qPrintable(error));
        }
        QVERIFY(run(QStringLiteral("{\"insert\": \"%1\", \"documents\": [{\"_id\": \"text\", "
                                   "\"scan\": \"%2\"}]}")
                        .arg(collection, QString(150000, QLatin1Char('t')))));
    }
    // The sha256 of each big binary of `docs` by its _id's JSON (as PyMongo prints it).
    static std::map<QString, QString> hashes(const std::map<QByteArray, QByteArray> &docs)
    {
        std::map<QString, QString> out;
        for (const auto &[id, doc] : docs) {
            const QByteArray raw = fixtures::fieldOf(doc, QStringLiteral("scan"));
            if (raw.size() < 100000 || raw.at(0) != char(BSON_TYPE_BINARY))
                continue;
            const qint32 n = qFromLittleEndian<qint32>(id.constData() + 1);
            out[QString::number(n)] = QString::fromLatin1(
                QCryptographicHash::hash(raw.mid(6), QCryptographicHash::Sha256).toHex());
        }
        return out;
    }
    static int filesOfParents(const QJsonObject &files, const std::map<QString, QString> &want)
    {
        int matching = 0;
        for (auto it = files.begin(); it != files.end(); ++it) {
            const QJsonObject f = it.value().toObject();
            const auto wanted = want.find(f.value(QStringLiteral("parent")).toString());
            matching += wanted != want.end() &&
                        wanted->second == f.value(QStringLiteral("sha256")).toString();
        }
        return matching;
    }

private slots:
    void initTestCase()
    {
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        m_python = fixtures::codegenDrivers() + QStringLiteral("/python");
        QVERIFY2(QFileInfo::exists(m_python + QStringLiteral("/gridfs")),
                 "no PyMongo: packaging/install-codegen-drivers.sh");
    }

    // Previewed, applied (each big binary a file PyMongo reads back whole, beside a foreign
    // file left alone), verified, and rolled back to the same bytes with the files removed.
    void roundTripReadByPyMongo()
    {
        const QString c = QStringLiteral("scans"), bucket = QStringLiteral("archive");
        makeScans(c, bucket, 12);
        QCOMPARE(python(kForeign, bucket), QString());
        const auto before = read(c);
        const auto want = hashes(before);
        QCOMPARE(want.size(), std::size_t(4));
        CliRun r = runCli(gridfs(c, bucket));
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("documents whose scan is a binary: 12; to "
                                                   "rewrite: 4; already so: 8; cannot be "
                                                   "rewritten: 0")) &&
                     r.out.contains(QStringLiteral("GridFS bucket archive")),
                 qPrintable(r.out + r.err));
        r = runCli(gridfs(c, bucket, {QStringLiteral("--strings")}));
        QVERIFY2(r.out.contains(QStringLiteral("to rewrite: 5;")), qPrintable(r.out + r.err));
        QVERIFY(read(c) == before);

        r = runCli(gridfs(
            c, bucket, {QStringLiteral("--yes"), QStringLiteral("--batch"), QStringLiteral("3")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 4;")),
                 qPrintable(r.out + r.err));
        const QJsonObject files = filesOf(bucket);
        QCOMPARE(files.size(), 5); // 4 and the foreign one
        QCOMPARE(filesOfParents(files, want), 4);
        for (const auto &[id, doc] : read(c)) {
            const QByteArray raw = fixtures::fieldOf(doc, QStringLiteral("scan"));
            const bool big = qFromLittleEndian<qint32>(id.constData() + 1) % 3 == 0 &&
                             id.at(0) == char(BSON_TYPE_INT32);
            QCOMPARE(raw.at(0) == char(BSON_TYPE_OID), big);
        }
        r = runCli(gridfs(c, bucket, {QStringLiteral("--verify")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("holding the rewrite: 4;")),
                 qPrintable(r.out + r.err));
        r = runCli(gridfs(c, bucket, {QStringLiteral("--rollback"), QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("restored: 4;")),
                 qPrintable(r.out + r.err));
        QVERIFY2(read(c) == before, "the collection differs from the one before");
        const QJsonObject left = filesOf(bucket);
        QCOMPARE(left.size(), 1);
        QCOMPARE(left.value(QStringLiteral("foreign-1"))
                     .toObject()
                     .value(QStringLiteral("length"))
                     .toInt(),
                 13000);
    }

    // A 15.9 MiB binary becomes one file of 64 chunks that PyMongo reads whole, and comes back.
    void binaryOf15Point9MiB()
    {
        const QString c = QStringLiteral("big"), bucket = QStringLiteral("fs");
        makeScans(c, bucket, 1, int(15.9 * 1024 * 1024));
        const auto before = read(c);
        CliRun r = runCli(gridfs(c, bucket, {QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("rewritten: 1;")),
                 qPrintable(r.out + r.err));
        QCOMPARE(filesOfParents(filesOf(bucket), hashes(before)), 1);
        r = runCli(gridfs(c, bucket, {QStringLiteral("--rollback"), QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(read(c) == before);
        drop(c, bucket);
    }

    // The application writes half a round's binaries between the journal (and the file) and the
    // guarded update: those keep its value, and their files are removed again.
    void theApplicationsWritesWin()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB's updates are not atomic: the window is not closed there (said)");
        const QString c = QStringLiteral("racing"), bucket = QStringLiteral("racing");
        makeScans(c, bucket, 12);
        oe::ConnectionSettings settings;
        settings.uri = m_uri;
        oe::RewriteConfig config;
        config.collection = c;
        config.kind = oe::RewriteKind::GridFs;
        config.path = QStringLiteral("scan");
        config.bucket = bucket;
        config.minBytes = 100000;
        oe::RewriteSession session(settings, kDb, config);
        oe::RewriteOptions options;
        options.beforeWrite = [&](const std::vector<QByteArray> &ids) {
            for (std::size_t i = 0; i < ids.size(); i += 2)
                run(QStringLiteral("{\"update\": \"%1\", \"updates\": [{\"q\": {\"_id\": %2}, "
                                   "\"u\": {\"$set\": {\"scan\": \"replaced\"}}}]}")
                        .arg(c)
                        .arg(qFromLittleEndian<qint32>(ids[i].constData() + 1)));
        };
        const oe::RewriteStep step = session.apply(options);
        QVERIFY2(step.ok, qPrintable(step.error.message));
        QCOMPARE(step.progress.changedSince, std::uint64_t(2));
        QCOMPARE(step.progress.rewritten, std::uint64_t(2));
        QCOMPARE(filesOf(bucket).size(), 2);
        const oe::RewriteStep verify = session.verify();
        QVERIFY(verify.ok && verify.verify.ok() && verify.verify.matching == 2);
    }

    // Killed with -9 at random moments, it resumes and ends whole; the rollback puts back the
    // same bytes and leaves no file.
    void killedAndResumed()
    {
        const bool mongod = m_server.isMongod();
        const QString c = QStringLiteral("killed"), bucket = QStringLiteral("killed");
        makeScans(c, bucket, mongod ? 90 : 30, 100000);
        const auto before = read(c);
        const QStringList paced{QStringLiteral("--yes"), QStringLiteral("--batch"),
                                QStringLiteral("3"), QStringLiteral("--max-docs-per-sec"),
                                mongod ? QStringLiteral("40") : QStringLiteral("15")};
        const int kills = mongod ? 2 : 1;
        const KillTrials trials =
            KillTrials::run(qEnvironmentVariable("OE_CLI"), gridfs(c, bucket, paced), kills);
        QCOMPARE(trials.killed, kills);
        CliRun r = runCli(gridfs(c, bucket, {QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resuming an interrupted")),
                 qPrintable(r.out + r.err));
        const int big = mongod ? 30 : 10;
        r = runCli(gridfs(c, bucket, {QStringLiteral("--verify")}));
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("%1 entries (the run recorded %1); holding the "
                                                   "rewrite: %1;")
                                        .arg(big)),
                 qPrintable(r.out + r.err));
        QCOMPARE(filesOfParents(filesOf(bucket), hashes(before)), big);
        QCOMPARE(filesOf(bucket).size(), big); // no file left over from a killed round
        r = runCli(gridfs(c, bucket, {QStringLiteral("--rollback"), QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QVERIFY(read(c) == before);
        QCOMPARE(filesOf(bucket).size(), 0);
    }

    // A bucket whose .files or .chunks is the collection rewritten, or one whose collections hold
    // documents that are not GridFS's (issue 53, defect 5): refused in one line, nothing written
    // (no journal, the collections as they were).
    void aBucketThatIsNotAFreeBucketIsRefused()
    {
        const QString own = QStringLiteral("media.files");
        makeScans(own, QStringLiteral("unused"), 3);
        const auto before = read(own);
        CliRun r = runCli(gridfs(own, QStringLiteral("media"), {QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 2 &&
                     r.err.contains(QStringLiteral("GridFS bucket 'media': its "
                                                   "media.files collection is "
                                                   "the collection rewritten")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
        QVERIFY(read(own) == before);
        QVERIFY(!fixtures::collectionExists(m_uri, kDb, own + QStringLiteral("_outlier_rewrites")));

        const QString c = QStringLiteral("beside");
        makeScans(c, QStringLiteral("other"), 3);
        QVERIFY(run(QStringLiteral("{\"insert\": \"other.chunks\", \"documents\": [{\"_id\": 1, "
                                   "\"note\": \"not a chunk\"}]}")));
        const auto scans = read(c);
        const auto chunks = read(QStringLiteral("other.chunks"));
        r = runCli(gridfs(c, QStringLiteral("other"), {QStringLiteral("--yes")}));
        QVERIFY2(r.exitCode == 2 &&
                     r.err.contains(QStringLiteral("other.chunks holds documents "
                                                   "that are not GridFS's")) &&
                     r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(r.err));
        QVERIFY(read(c) == scans);
        QVERIFY(read(QStringLiteral("other.chunks")) == chunks);
        drop(own, QStringLiteral("media"));
        drop(c, QStringLiteral("other"));
    }

private:
    std::map<QByteArray, QByteArray> read(const QString &collection) const
    {
        return fixtures::readCollection(m_uri, kDb, collection);
    }
};

QTEST_GUILESS_MAIN(TestGridFs)
#include "tst_gridfs.moc"
