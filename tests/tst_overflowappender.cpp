// The pattern's write path in C++ (OverflowAppender: what `whatif` times, what the tests'
// application runs during migrations, the algorithm `codegen` writes for each language)
// against the real server. On mongod: the slot counter, one round trip while a document has
// room and two once it has overflowed (counted by the server's profiler), elements taken
// literally (never evaluated as expressions), a document the split has not reached yet growing
// in place, and four threads racing on one document losing nothing. On FerretDB, which has no
// update pipelines: the legacy path chosen by itself, said, and giving the same layout.
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "mongo/MongoConnection.h"
#include "mongo/MongoRuntime.h"
#include "whatif/OverflowAppender.h"

#include <QtTest>

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

using namespace oe;

namespace {

QByteArray rawString(const QByteArray &s)
{
    const auto length = std::uint32_t(s.size() + 1);
    QByteArray out(1, '\x02');
    out.append(reinterpret_cast<const char *>(&length), 4);
    return out + s + QByteArray(1, '\0');
}

QByteArray rawInt64(std::int64_t n)
{
    QByteArray out(1, '\x12');
    out.append(reinterpret_cast<const char *>(&n), 8); // little-endian here (x86-64)
    return out;
}

QList<QByteArray> numbers(std::int64_t from, std::int64_t to)
{
    QList<QByteArray> out;
    for (std::int64_t n = from; n <= to; ++n)
        out << rawInt64(n);
    return out;
}

QString json(std::int64_t from, std::int64_t to)
{
    QStringList out;
    for (std::int64_t n = from; n <= to; ++n)
        out << QStringLiteral("{\"$numberLong\": \"%1\"}").arg(n);
    return QLatin1Char('[') + out.join(QStringLiteral(", ")) + QLatin1Char(']');
}

} // namespace

class TestOverflowAppender : public QObject
{
    Q_OBJECT

    fixtures::LiveServer m_server;
    QString m_uri;
    const QString m_db = QStringLiteral("oe_appender");
    std::unique_ptr<MongoConnection> m_connection;

    SplitConfig layout(const QString &collection) const
    {
        SplitConfig c;
        c.collection = collection;
        c.field = QStringLiteral("items");
        c.keep = 3;
        c.pageSize = 4;
        c.countField = QStringLiteral("n");
        c.pagesField = QStringLiteral("p");
        return c.withDefaults();
    }

    void run(const QString &commandJson)
    {
        QString error;
        QVERIFY2(fixtures::command(m_uri, m_db, commandJson.toUtf8(), &error), qPrintable(error));
    }

    // S: split (3 kept, pages [4..7], [8, 9]); U: 2 elements; L: 6 elements, not split yet;
    // E: no array at all.
    void load(const QString &collection)
    {
        QString error;
        fixtures::command(m_uri, m_db,
                          QStringLiteral("{\"drop\": \"%1\"}").arg(collection).toUtf8(), &error);
        fixtures::command(m_uri, m_db,
                          QStringLiteral("{\"drop\": \"%1_overflow\"}").arg(collection).toUtf8(),
                          &error);
        run(QStringLiteral(
                "{\"insert\": \"%1\", \"documents\": ["
                "{\"_id\": \"S\", \"items\": %2, \"has_extras\": true, \"n\": 9, \"p\": 2},"
                "{\"_id\": \"U\", \"items\": %3}, {\"_id\": \"L\", \"items\": %4},"
                "{\"_id\": \"E\", \"title\": \"no array\"}]}")
                .arg(collection, json(1, 3), json(1, 2), json(1, 6)));
        run(QStringLiteral("{\"createIndexes\": \"%1_overflow\", \"indexes\": [{\"key\": "
                           "{\"parent_id\": 1, \"page\": 1}, \"name\": \"link\", \"unique\": "
                           "true}]}")
                .arg(collection));
        run(QStringLiteral("{\"insert\": \"%1_overflow\", \"documents\": ["
                           "{\"parent_id\": \"S\", \"page\": 0, \"items\": %2},"
                           "{\"parent_id\": \"S\", \"page\": 1, \"items\": %3}]}")
                .arg(collection, json(4, 7), json(8, 9)));
    }

    // The pages of `parent`, in page order: their elements; {-1} for a gap in the numbering.
    std::vector<QList<QByteArray>> pagesOf(const QString &collection, const QByteArray &parent)
    {
        std::map<std::int64_t, QList<QByteArray>> byPage;
        for (const auto &[id, page] :
             fixtures::readCollection(m_uri, m_db, collection + QStringLiteral("_overflow")))
            if (fixtures::fieldOf(page, QStringLiteral("parent_id")) == parent)
                byPage[fixtures::numberOf(page, QStringLiteral("page"))] =
                    fixtures::elementsOf(page, QStringLiteral("items"));
        std::vector<QList<QByteArray>> out;
        for (const auto &[number, items] : byPage)
            out.push_back(number == std::int64_t(out.size()) ? items : QList<QByteArray>{"gap"});
        return out;
    }

    std::int64_t profiled(const QString &ns, const QString &filter) const
    {
        return fixtures::profiled(m_uri, m_db, ns, filter);
    }

    // Appends `from`..`to` to `id` in turn; the paths taken.
    QList<OverflowAppender::Path> append(OverflowAppender &appender, const char *id,
                                         std::int64_t from, std::int64_t to)
    {
        QList<OverflowAppender::Path> paths;
        for (std::int64_t n = from; n <= to; ++n) {
            OverflowAppender::Path path;
            SourceError error;
            if (!appender.append(rawString(id), rawInt64(n), &path, &error)) {
                qWarning("append %s %lld: %s", id, static_cast<long long>(n),
                         qPrintable(error.toString()));
                return {};
            }
            paths << path;
        }
        return paths;
    }

    // Sequential appends to the four documents, through `protocol` (or the one the appender
    // chooses), and the layout they leave.
    void appendsLandWhereTheyBelong(const QString &collection,
                                    std::optional<OverflowAppender::Protocol> protocol)
    {
        load(collection);
        OverflowAppender appender(*m_connection, m_db, layout(collection));
        if (protocol)
            appender.setProtocol(*protocol);
        using P = OverflowAppender::Path;
        // S's slots 6, 7 fill page 1; slot 8 opens page 2.
        QCOMPARE(append(appender, "S", 10, 13), QList<P>({P::Page, P::Page, P::NewPage, P::Page}));
        // U has room for one; its next element opens its page 0.
        QCOMPARE(append(appender, "U", 3, 5), QList<P>({P::Document, P::NewPage, P::Page}));
        // L holds more than keep without the flag: not split yet, it grows in place.
        QCOMPARE(append(appender, "L", 7, 7), QList<P>({P::Document}));
        QCOMPARE(append(appender, "E", 1, 1), QList<P>({P::Document}));
        if (protocol == OverflowAppender::Protocol::Legacy || m_server.isFerretDb())
            QCOMPARE(appender.protocol(), OverflowAppender::Protocol::Legacy);
        else
            QCOMPARE(appender.protocol(), OverflowAppender::Protocol::SlotCounter);
        QCOMPARE(appender.warning().isEmpty(), protocol.has_value() || !m_server.isFerretDb());

        const auto docs = fixtures::readCollection(m_uri, m_db, collection);
        const QByteArray s = docs.at(rawString("S")), u = docs.at(rawString("U")),
                         l = docs.at(rawString("L")), e = docs.at(rawString("E"));
        QCOMPARE(fixtures::elementsOf(s, QStringLiteral("items")), numbers(1, 3));
        QCOMPARE(fixtures::numberOf(s, QStringLiteral("n")), std::int64_t(13));
        QCOMPARE(fixtures::numberOf(s, QStringLiteral("p")), std::int64_t(3));
        QCOMPARE(pagesOf(collection, rawString("S")),
                 std::vector<QList<QByteArray>>({numbers(4, 7), numbers(8, 11), numbers(12, 13)}));
        QCOMPARE(fixtures::elementsOf(u, QStringLiteral("items")), numbers(1, 3));
        QCOMPARE(fixtures::fieldOf(u, QStringLiteral("has_extras")), QByteArray("\x08\x01", 2));
        QCOMPARE(fixtures::numberOf(u, QStringLiteral("n")), std::int64_t(5));
        QCOMPARE(fixtures::numberOf(u, QStringLiteral("p")), std::int64_t(1));
        QCOMPARE(pagesOf(collection, rawString("U")),
                 std::vector<QList<QByteArray>>({numbers(4, 5)}));
        QCOMPARE(fixtures::elementsOf(l, QStringLiteral("items")), numbers(1, 7));
        QVERIFY(fixtures::fieldOf(l, QStringLiteral("has_extras")).isEmpty());
        QVERIFY(pagesOf(collection, rawString("L")).empty());
        QCOMPARE(fixtures::elementsOf(e, QStringLiteral("items")), numbers(1, 1));
        QVERIFY(fixtures::fieldOf(e, QStringLiteral("has_extras")).isEmpty());

        OverflowAppender::Path path;
        SourceError error;
        QVERIFY(!appender.append(rawString("nobody"), rawInt64(1), &path, &error));
        QVERIFY2(error.message.contains(QStringLiteral("no document")), qPrintable(error.message));
    }

private slots:
    void initTestCase()
    {
        MongoRuntime::ensureInitialized();
        m_server = fixtures::LiveServer::open();
        QVERIFY2(m_server.isValid(), qPrintable(m_server.missing()));
        m_uri = m_server.uri();
        ConnectionSettings settings;
        settings.uri = m_uri;
        SourceError error;
        m_connection = MongoConnection::open(settings, &error);
        QVERIFY2(m_connection, qPrintable(error.toString()));
    }

    void appendsLandWhereTheyBelong() { appendsLandWhereTheyBelong(QStringLiteral("seq"), {}); }

    // The legacy path is what FerretDB gets; on mongod it gives the same layout.
    void legacyPathGivesTheSameLayout()
    {
        appendsLandWhereTheyBelong(QStringLiteral("legacy"), OverflowAppender::Protocol::Legacy);
    }

    // Strings that look like expressions ("$items", "$$ROOT") stored as they are, in the
    // document and on a page.
    void elementsAreTakenLiterally()
    {
        load(QStringLiteral("literal"));
        OverflowAppender appender(*m_connection, m_db, layout(QStringLiteral("literal")));
        for (const char *id : {"U", "S"})
            for (const QByteArray &text : {QByteArray("$items"), QByteArray("$$ROOT")}) {
                OverflowAppender::Path path;
                SourceError error;
                QVERIFY2(appender.append(rawString(id), rawString(text), &path, &error),
                         qPrintable(error.toString()));
            }
        const auto docs = fixtures::readCollection(m_uri, m_db, QStringLiteral("literal"));
        const QList<QByteArray> u =
            fixtures::elementsOf(docs.at(rawString("U")), QStringLiteral("items"));
        QCOMPARE(u.size(), qsizetype(3));
        QCOMPARE(u.last(), rawString("$items"));
        const auto pages = pagesOf(QStringLiteral("literal"), rawString("S"));
        QCOMPARE(pages.size(), std::size_t(2));
        QCOMPARE(pages[1].mid(2), QList<QByteArray>({rawString("$items"), rawString("$$ROOT")}));
    }

    // Four threads, each on a connection of its own, 150 appends each to S: nothing lost or
    // doubled, each thread's elements in its order, every page full but the last, the count
    // and page count right; and two round trips an append, none of them a read.
    void concurrentWritersLoseNothing()
    {
        if (m_server.isFerretDb())
            QSKIP("FerretDB applies an update non-atomically: the legacy path can lose a "
                  "concurrent append there (said by OverflowAppender::warning())");
        const QString collection = QStringLiteral("race");
        load(collection);
        QString error;
        QVERIFY2(fixtures::startProfiling(m_uri, m_db, &error), qPrintable(error));
        constexpr int kThreads = 4, kEach = 150;
        std::vector<std::thread> threads;
        std::vector<QString> failures(kThreads);
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                ConnectionSettings settings;
                settings.uri = m_uri;
                SourceError e;
                const auto connection = MongoConnection::open(settings, &e);
                if (!connection) {
                    failures[std::size_t(t)] = e.toString();
                    return;
                }
                OverflowAppender appender(*connection, m_db, layout(collection));
                for (int i = 1; i <= kEach && failures[std::size_t(t)].isEmpty(); ++i) {
                    OverflowAppender::Path path;
                    if (!appender.append(rawString("S"), rawInt64((t + 1) * 1000 + i), &path, &e))
                        failures[std::size_t(t)] = e.toString();
                }
            });
        for (auto &t : threads)
            t.join();
        QVERIFY2(fixtures::stopProfiling(m_uri, m_db, &error), qPrintable(error));
        for (const QString &f : failures)
            QVERIFY2(f.isEmpty(), qPrintable(f));

        std::vector<QList<QByteArray>> pages = pagesOf(collection, rawString("S"));
        QList<QByteArray> overflow;
        for (std::size_t k = 0; k < pages.size(); ++k) {
            if (k + 1 < pages.size())
                QCOMPARE(pages[k].size(), qsizetype(4));
            overflow += pages[k];
        }
        QCOMPARE(overflow.mid(0, 6), numbers(4, 9));
        std::map<std::int64_t, QList<std::int64_t>> byThread;
        for (const QByteArray &raw : overflow.mid(6)) {
            std::int64_t n = 0;
            std::memcpy(&n, raw.constData() + 1, 8);
            byThread[n / 1000] << n % 1000;
        }
        QList<std::int64_t> inOrder;
        for (int i = 1; i <= kEach; ++i)
            inOrder << i;
        QCOMPARE(byThread.size(), std::size_t(kThreads));
        for (const auto &[thread, elements] : byThread)
            QCOMPARE(elements, inOrder);
        const int total = 9 + kThreads * kEach;
        const QByteArray s = fixtures::readCollection(m_uri, m_db, collection).at(rawString("S"));
        QCOMPARE(fixtures::numberOf(s, QStringLiteral("n")), std::int64_t(total));
        QCOMPARE(fixtures::numberOf(s, QStringLiteral("p")), std::int64_t(pages.size()));
        QCOMPARE(pages.size(), std::size_t((total - 3 + 3) / 4));

        // One findAndModify an append, and each appender's one probe for update pipelines
        // (on {_id: {$exists: false}}, which matches nothing).
        const QString ns = m_db + QStringLiteral(".race");
        QCOMPARE(profiled(ns, QStringLiteral("{\"command.findAndModify\": {\"$exists\": true}, "
                                             "\"command.query._id\": {\"$ne\": {\"$exists\": "
                                             "false}}}")),
                 std::int64_t(kThreads * kEach));
        QCOMPARE(profiled(ns, QStringLiteral(
                                  "{\"command.query._id\": {\"$eq\": {\"$exists\": false}}}")),
                 std::int64_t(kThreads));
        QCOMPARE(profiled(ns, QStringLiteral("{\"op\": {\"$ne\": \"command\"}}")), std::int64_t(0));
        const std::int64_t pageWrites =
            profiled(ns + QStringLiteral("_overflow"), QStringLiteral("{\"op\": \"update\"}"));
        QVERIFY2(pageWrites >= kThreads * kEach && pageWrites <= kThreads * kEach + 3 * kThreads,
                 qPrintable(QString::number(pageWrites)));
        QCOMPARE(profiled(ns + QStringLiteral("_overflow"), QStringLiteral("{\"op\": \"query\"}")),
                 std::int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestOverflowAppender)
#include "tst_overflowappender.moc"
