#pragma once

// The live migration tests' bench (tst_migration, tst_migrationwriters): a small book-sales
// dump imported into oe_migration.<collection> on the fixture's server, the CLI run on it, the
// documents read back, and applications appending through the product's write path.

#include "BsonFixtures.h"
#include "CliRunner.h"
#include "ConcurrentAppender.h"
#include "KillTrials.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "SplitDocuments.h"
#include "mongo/MongoConnection.h"

#include <QTemporaryDir>
#include <QTest>

#include <bson/bson.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

class MigrationTestBed
{
protected:
    QTemporaryDir m_dir;
    QString m_cli, m_uri, m_dump;
    fixtures::LiveServer m_server;
    static constexpr int kKeep = 20;
    static constexpr int kPageSize = 7;
    const QString kField = QStringLiteral("customers_purchased");

    using Run = CliRun;
    static Run cli(const QStringList &args) { return runCli(args); }
    QStringList target(const QString &collection) const
    {
        return {QStringLiteral("--uri"),        m_uri,
                QStringLiteral("--db"),         QStringLiteral("oe_migration"),
                QStringLiteral("--collection"), collection};
    }
    QStringList splitArgs(const QString &collection) const
    {
        return QStringList{QStringLiteral("split")} + target(collection) +
               QStringList{QStringLiteral("--field"),       kField,
                           QStringLiteral("--keep"),        QString::number(kKeep),
                           QStringLiteral("--page-size"),   QString::number(kPageSize),
                           QStringLiteral("--count-field"), QStringLiteral("sales"),
                           QStringLiteral("--yes")};
    }
    void import(const QString &collection)
    {
        const Run r = cli(QStringList{QStringLiteral("import")} + target(collection) +
                          QStringList{QStringLiteral("--dump"), m_dump, QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    }
    oe::ConnectionSettings settings() const
    {
        oe::ConnectionSettings s;
        s.uri = m_uri;
        return s;
    }
    // Every document of a collection, by _id (raw value bytes).
    std::map<QByteArray, QByteArray> read(const QString &collection) const
    {
        return fixtures::readCollection(m_uri, QStringLiteral("oe_migration"), collection);
    }
    static QByteArray idOf(const QByteArray &doc) { return fixtures::fieldOf(doc, u"_id"_qs); }
    // The document's customers_purchased elements (raw values).
    QList<QByteArray> items(const QByteArray &doc) const
    {
        return fixtures::elementsOf(doc, kField);
    }
    // The dump's documents in file order (the order a collection scan returns them after
    // import), and by _id.
    std::vector<QByteArray> originalInOrder() const { return fixtures::dumpDocuments(m_dump); }
    std::map<QByteArray, QByteArray> original() const
    {
        std::map<QByteArray, QByteArray> docs;
        for (const QByteArray &doc : originalInOrder())
            docs[idOf(doc)] = doc;
        return docs;
    }
    // Primary elements followed by the pages' items, per document.
    std::map<QByteArray, QList<QByteArray>> reassembled(const QString &collection) const
    {
        return fixtures::reassembled(m_uri, QStringLiteral("oe_migration"), collection, kField);
    }
    static QString difference(const QByteArray &id, const QList<QByteArray> &actual,
                              const QList<QByteArray> &expected)
    {
        return fixtures::elementDifference(id, actual, expected);
    }
    bool verifies(const QString &collection)
    {
        const Run r = cli(QStringList{QStringLiteral("verify")} + target(collection) +
                          QStringList{QStringLiteral("--field"), kField});
        if (r.exitCode != 0 || !r.out.contains(QStringLiteral("mismatches: 0")))
            qWarning("verify: %s %s", qPrintable(r.out), qPrintable(r.err));
        return r.exitCode == 0 && r.out.contains(QStringLiteral("mismatches: 0"));
    }
    // FerretDB 1.x applies an update by evaluating its filter on a snapshot and writing the
    // whole document back by _id, not atomically: a trim whose guard was read just before an
    // application's $push committed overwrites that push, so an acknowledged append can be lost
    // whatever the client does (two clients pushing 150 elements each to one document keep 150
    // of the 300 acknowledged). The product warns there (roundTrip checks the warning); the
    // proofs that no element is lost under concurrent writers run on mongod.
    bool updatesAreAtomic() const { return !m_server.isFerretDb(); }
    static constexpr const char *kNotAtomic =
        "FerretDB 1.x loses concurrent updates to one document by itself: this proof runs on "
        "mongod (label mongodb)";
    // The _ids of the documents the split moves elements out of, in the order it reaches them.
    std::vector<QByteArray> outlierIds() const
    {
        std::vector<QByteArray> ids;
        for (const QByteArray &doc : originalInOrder())
            if (items(doc).size() > kKeep)
                ids.push_back(idOf(doc));
        return ids;
    }
    int outlierCount() const { return int(outlierIds().size()); }
    // Journal entries of `collection` that record a document as split.
    int journaledAsSplit(const QString &collection) const
    {
        const QByteArray split = QByteArray(1, char(BSON_TYPE_UTF8)) +
                                 QByteArray::fromHex("06000000") + QByteArray("split", 6);
        int n = 0;
        for (const auto &[id, entry] : read(collection + QStringLiteral("_outlier_migrations")))
            n += fixtures::fieldOf(entry, QStringLiteral("state")) == split;
        return n;
    }
    KillTrials killAtRandom(const QStringList &args, int kills) const
    {
        return KillTrials::run(m_cli, args, kills);
    }
    void expectOriginalDocuments(const QString &collection)
    {
        const auto now = read(collection);
        const auto before = original();
        QCOMPARE(now.size(), before.size());
        for (const auto &[id, doc] : before) {
            QVERIFY(now.count(id));
            QCOMPARE(now.at(id), doc);
        }
        QVERIFY(read(collection + QStringLiteral("_overflow")).empty());
    }
    // Every original element, then every appended one, exactly once and in order; every
    // outlier split; verify agrees.
    void expectSplitWithAppends(const QString &collection,
                                const std::map<QByteArray, QList<QByteArray>> &appended)
    {
        const auto after = reassembled(collection);
        for (const auto &[id, doc] : original()) {
            QList<QByteArray> expected = items(doc);
            if (appended.count(id))
                expected += appended.at(id);
            if (after.at(id) != expected)
                QFAIL(qPrintable(difference(id, after.at(id), expected)));
        }
        for (const auto &[id, doc] : read(collection))
            QVERIFY(items(doc).size() <= kKeep);
        QVERIFY(verifies(collection));
    }
    void expectElementsPreserved(const QString &collection)
    {
        const auto before = original();
        const auto after = reassembled(collection);
        for (const auto &[id, doc] : before)
            QCOMPARE(after.at(id), items(doc));
        for (const auto &[id, doc] : read(collection))
            QVERIFY(items(doc).size() <= kKeep);
    }

    // Three applications, each appending to its own five hot outliers (spread over the order the
    // split reaches them) every 10 ms, by the pattern's write path, until stopped: each document
    // every 50 ms, often enough to meet the split, rarely enough that a slow client (a sanitizer
    // build) still trims it within its 20 attempts.
    std::vector<std::unique_ptr<ConcurrentAppender>>
    startWriters(const QString &collection, const std::vector<QByteArray> &outliers,
                 const std::string &name) const
    {
        constexpr std::size_t kWriters = 3, kHotEach = 5;
        std::vector<std::unique_ptr<ConcurrentAppender>> writers;
        for (std::size_t w = 0; w < kWriters; ++w) {
            std::vector<QByteArray> hot;
            for (std::size_t k = 0; k < kHotEach; ++k)
                hot.push_back(
                    outliers[(k * kWriters + w) * outliers.size() / (kWriters * kHotEach)]);
            writers.push_back(std::make_unique<ConcurrentAppender>(
                ConcurrentAppender::Target{m_uri, QStringLiteral("oe_migration"), collection,
                                           collection + QStringLiteral("_overflow"), kField,
                                           QStringLiteral("has_extras"), kPageSize, QString(),
                                           kKeep},
                hot, std::chrono::milliseconds(10), name + std::to_string(w)));
            writers.back()->start();
        }
        return writers;
    }
    // Stops the writers and adds what they appended (acknowledged) to `appended`; the count.
    static int stopWriters(std::vector<std::unique_ptr<ConcurrentAppender>> &writers,
                           std::map<QByteArray, QList<QByteArray>> *appended, QString *error)
    {
        int total = 0;
        for (auto &writer : writers) {
            if (!writer->stop(50))
                *error = writer->error();
            total += writer->appended();
            for (const auto &[id, elements] : writer->elements())
                (*appended)[id] += elements;
        }
        return total;
    }

    // The server and the dump; call from initTestCase.
    void setUpBed()
    {
        m_cli = qEnvironmentVariable("OE_CLI");
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        // A small book-sales collection keeps the suite quick on FerretDB's SQLite backend.
        QCOMPARE(cli({QStringLiteral("demo-data"), QStringLiteral("--out"), m_dir.path(),
                      QStringLiteral("--dataset"), QStringLiteral("book_sales"),
                      QStringLiteral("--docs"), QStringLiteral("500")})
                     .exitCode,
                 0);
        m_dump = m_dir.filePath(QStringLiteral("book_sales.bson"));
    }
};
