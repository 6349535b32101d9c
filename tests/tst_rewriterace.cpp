// An application's type-only write is never overwritten by a rewrite (issue 53, defect 1).
// MongoDB's $eq compares numbers by value (int 5 = long 5, 0.0 = -0.0, decimal 1.0 = 1.00),
// so a guard of {$eq: value} lets such a write through; the guards prove bytes (ExactMatch) on
// mongod, and each round reads the values first where the server cannot (FerretDB).
// For each remedy that compares values (extract, keys to an array, attributes):
// - apply: an application changes a number's type in the window between the journal and the
//   guarded write (deterministically, by the session's test hook): its value is kept;
// - rollback: a type-only write made after the rewrite is kept (mongod and FerretDB), and so is
//   one made between the rollback's read and its write (mongod);
// - an application thread changing types while the rewrite and its rollback run: every
//   document it changed holds its long at the end, whatever the timing.
#include "LiveBench.h"
#include "LiveDocuments.h"
#include "LiveServer.h"
#include "TypeFlipper.h"
#include "remedy/RewriteSession.h"

#include <QtEndian>
#include <QtTest>

#include <bson/bson.h>

#include <algorithm>
#include <random>

namespace {

const QString kDb = QStringLiteral("oe_rewriterace");

enum class Remedy
{
    Extract,
    Keys,
    Attributes
};

// Whether a document holds a long anywhere (the test's documents hold ints only, but for the
// application's writes).
bool holdsLong(const bson_iter_t *start)
{
    bson_iter_t it = *start;
    while (bson_iter_next(&it)) {
        if (BSON_ITER_HOLDS_INT64(&it))
            return true;
        bson_iter_t child;
        if ((BSON_ITER_HOLDS_DOCUMENT(&it) || BSON_ITER_HOLDS_ARRAY(&it)) &&
            bson_iter_recurse(&it, &child) && holdsLong(&child))
            return true;
    }
    return false;
}

bool holdsLong(const QByteArray &doc)
{
    bson_t d;
    bson_iter_t it;
    return bson_init_static(&d, reinterpret_cast<const std::uint8_t *>(doc.constData()),
                            std::size_t(doc.size())) &&
           bson_iter_init(&it, &d) && holdsLong(&it);
}

QByteArray intId(qint32 id)
{
    QByteArray raw(1, char(BSON_TYPE_INT32));
    raw.append(reinterpret_cast<const char *>(&id), 4); // little-endian machines
    return raw;
}

qint32 idOf(const QByteArray &raw)
{
    return qFromLittleEndian<qint32>(raw.constData() + 1);
}

// The number each document holds that the application changes to a long: never 0.
int numberOf(int i)
{
    return i % 5 + 2;
}

QString documentJson(Remedy remedy, int i)
{
    const int n = numberOf(i);
    switch (remedy) {
    case Remedy::Extract:
        return QStringLiteral(R"({"_id": %1, "title": "t%1", "body": {"title": "x", "n": %2, )"
                              R"("html": "%3"}, "likes": %1})")
            .arg(i)
            .arg(n)
            .arg(QString(300, QLatin1Char('a')));
    case Remedy::Keys:
        return QStringLiteral(R"({"_id": %1, "daily": {"2026-11-01": {"views": %2}, )"
                              R"("2026-11-02": {"views": 1}}, "tail": true})")
            .arg(i)
            .arg(n);
    case Remedy::Attributes:
        return QStringLiteral(R"({"_id": %1, "name": "p%1", "color": "red", )"
                              R"("dims": {"w": %2, "h": 1}, "price": 10})")
            .arg(i)
            .arg(n);
    }
    return {};
}

// The application's type-only write in each form the document may be in (before the rewrite,
// after it), as update statements.
QStringList flipStatements(Remedy remedy, int i)
{
    const QString id = QString::number(i);
    const QString to = QStringLiteral(R"({"$numberLong": "%1"})").arg(numberOf(i));
    const QString isInt = QStringLiteral(R"({"$type": "int"})");
    switch (remedy) {
    case Remedy::Extract: // the excerpt keeps n: one form
        return {QStringLiteral(R"({"q": {"_id": %1, "body.n": %2}, "u": {"$set": {"body.n": %3}}})")
                    .arg(id, isInt, to)};
    case Remedy::Keys:
        return {QStringLiteral(R"({"q": {"_id": %1, "daily.2026-11-01.views": %2}, )"
                               R"("u": {"$set": {"daily.2026-11-01.views": %3}}})")
                    .arg(id, isInt, to),
                // The array keeps the object's order: the first day is element 0 (by its index:
                // FerretDB has no positional $).
                QStringLiteral(R"({"q": {"_id": %1, "daily.0.k": "2026-11-01", )"
                               R"("daily.0.v.views": %2}, "u": {"$set": {"daily.0.v.views": %3}}})")
                    .arg(id, isInt, to)};
    case Remedy::Attributes:
        return {QStringLiteral(R"({"q": {"_id": %1, "dims.w": %2}, "u": {"$set": {"dims.w": %3}}})")
                    .arg(id, isInt, to),
                QStringLiteral(R"({"q": {"_id": %1, "attrs.1.k": "dims", "attrs.1.v.w": %2}, )"
                               R"("u": {"$set": {"attrs.1.v.w": %3}}})")
                    .arg(id, isInt, to)};
    }
    return {};
}

oe::RewriteConfig configOf(Remedy remedy, const QString &collection)
{
    oe::RewriteConfig config;
    config.collection = collection;
    switch (remedy) {
    case Remedy::Extract:
        config.kind = oe::RewriteKind::Extract;
        config.path = QStringLiteral("body");
        config.minBytes = 100;
        config.excerptKeys = {QStringLiteral("title"), QStringLiteral("n")};
        break;
    case Remedy::Keys:
        config.kind = oe::RewriteKind::KeysToArray;
        config.path = QStringLiteral("daily");
        break;
    case Remedy::Attributes:
        config.kind = oe::RewriteKind::Attributes;
        config.path = QStringLiteral("attrs");
        config.fields = {QStringLiteral("color"), QStringLiteral("dims")};
        break;
    }
    return config;
}

} // namespace

Q_DECLARE_METATYPE(Remedy)

class TestRewriteRace : public QObject, public LiveBench
{
    Q_OBJECT

    void make(Remedy remedy, const QString &collection, int count) const
    {
        for (const QString &name :
             QStringList{collection, collection + QStringLiteral("_outlier_rewrites"),
                         collection + QStringLiteral("_body_full")})
            run(QStringLiteral(R"({"drop": "%1"})").arg(name));
        QStringList docs;
        for (int i = 0; i < count; ++i)
            docs << documentJson(remedy, i);
        if (docs.isEmpty())
            return;
        QString error;
        QVERIFY2(run(QStringLiteral(R"({"insert": "%1", "documents": [%2]})")
                         .arg(collection, docs.join(QLatin1Char(','))),
                     &error),
                 qPrintable(error));
    }
    // The application's type-only write to document `i`, in whichever form it is: true when it
    // changed it.
    bool flip(Remedy remedy, const QString &collection, int i) const
    {
        for (const QString &statement : flipStatements(remedy, i)) {
            QByteArray reply;
            QString error;
            if (fixtures::command(m_uri, kDb,
                                  QStringLiteral(R"({"update": "%1", "updates": [%2]})")
                                      .arg(collection, statement)
                                      .toUtf8(),
                                  &error, &reply) &&
                fixtures::numberOf(reply, QStringLiteral("nModified")) == 1)
                return true;
        }
        return false;
    }
    oe::RewriteSession session(Remedy remedy, const QString &collection) const
    {
        oe::ConnectionSettings settings;
        settings.uri = m_uri;
        return oe::RewriteSession(settings, kDb, configOf(remedy, collection));
    }
    static void addRemedies()
    {
        QTest::addColumn<Remedy>("remedy");
        QTest::newRow("extract") << Remedy::Extract;
        QTest::newRow("keys to an array") << Remedy::Keys;
        QTest::newRow("attributes") << Remedy::Attributes;
    }

public:
    TestRewriteRace() : LiveBench(kDb) {}

private slots:
    void initTestCase()
    {
        const QString missing = openServer();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }

    // In the window between journal and write, every other document of the round gets a long
    // where the rewrite read an int: those keep it, untouched, and count as the application's.
    void applyKeepsTypeOnlyWrites_data() { addRemedies(); }
    void applyKeepsTypeOnlyWrites()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB's updates are not atomic: the window is not closed there (said)");
        QFETCH(Remedy, remedy);
        const QString c = QStringLiteral("apply_window");
        make(remedy, c, 20);
        const auto before = read(c);
        oe::RewriteSession rewrite = session(remedy, c);
        oe::RewriteOptions options;
        std::set<QByteArray> flipped;
        options.beforeWrite = [&](const std::vector<QByteArray> &ids) {
            for (std::size_t i = 0; i < ids.size(); i += 2)
                if (flip(remedy, c, idOf(ids[i])))
                    flipped.insert(ids[i]);
        };
        const oe::RewriteStep step = rewrite.apply(options);
        QVERIFY2(step.ok, qPrintable(step.error.message));
        QCOMPARE(flipped.size(), std::size_t(10));
        QCOMPARE(step.progress.changedSince, std::uint64_t(10));
        QCOMPARE(step.progress.rewritten, std::uint64_t(10));
        const auto after = read(c);
        for (const QByteArray &id : flipped) {
            QVERIFY2(holdsLong(after.at(id)), "the application's long was overwritten");
            QVERIFY(after.at(id) != before.at(id)); // its write, not the rewrite's
        }
    }

    // After the rewrite, three documents get a long where the rewrite wrote an int: the rollback
    // keeps them (the application's value) and restores the rest byte for byte.
    void rollbackKeepsTypeOnlyWrites_data() { addRemedies(); }
    void rollbackKeepsTypeOnlyWrites()
    {
        QFETCH(Remedy, remedy);
        const QString c = QStringLiteral("rollback_after");
        make(remedy, c, 20);
        const auto before = read(c);
        oe::RewriteSession rewrite = session(remedy, c);
        const oe::RewriteStep applied = rewrite.apply({});
        QVERIFY2(applied.ok, qPrintable(applied.error.message));
        QCOMPARE(applied.progress.rewritten, std::uint64_t(20));
        for (int i : {3, 8, 15})
            QVERIFY(flip(remedy, c, i));
        const oe::RewriteStep back = rewrite.rollback({});
        QVERIFY2(back.ok, qPrintable(back.error.message));
        QCOMPARE(back.progress.changedSince, std::uint64_t(3));
        QCOMPARE(back.progress.rewritten, std::uint64_t(17));
        const auto after = read(c);
        for (const auto &[id, doc] : after) {
            const int i = idOf(id);
            if (i == 3 || i == 8 || i == 15)
                QVERIFY2(holdsLong(doc), "the application's long was rolled back");
            else
                QVERIFY2(doc == before.at(id), "a document not written is not restored exactly");
        }
    }

    // Between the rollback's read and its write, every other document of the round gets a long:
    // kept.
    void rollbackWindowKeepsTypeOnlyWrites_data() { addRemedies(); }
    void rollbackWindowKeepsTypeOnlyWrites()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB's updates are not atomic: the window is not closed there (said)");
        QFETCH(Remedy, remedy);
        const QString c = QStringLiteral("rollback_window");
        make(remedy, c, 20);
        oe::RewriteSession rewrite = session(remedy, c);
        QVERIFY(rewrite.apply({}).ok);
        oe::RewriteOptions options;
        std::set<QByteArray> flipped;
        options.beforeRestore = [&](const std::vector<QByteArray> &ids) {
            for (std::size_t i = 0; i < ids.size(); i += 2)
                if (!flipped.count(ids[i]) && flip(remedy, c, idOf(ids[i])))
                    flipped.insert(ids[i]);
        };
        const oe::RewriteStep back = rewrite.rollback(options);
        QVERIFY2(back.ok, qPrintable(back.error.message));
        QCOMPARE(flipped.size(), std::size_t(10));
        QCOMPARE(back.progress.changedSince, std::uint64_t(10));
        QCOMPARE(back.progress.rewritten, std::uint64_t(10));
        const auto after = read(c);
        for (const QByteArray &id : flipped)
            QVERIFY2(holdsLong(after.at(id)), "the application's long was rolled back");
    }

    // The application gives the field another type altogether after the rewrite (an object
    // where the rewrite wrote an array, a number, an array where it wrote a sub-document): the
    // guards' proof never makes the server fail on it (it is evaluated on whatever the
    // document holds), and those documents are the application's.
    void anotherTypeIsTheApplications_data() { addRemedies(); }
    void anotherTypeIsTheApplications()
    {
        QFETCH(Remedy, remedy);
        const QString c = QStringLiteral("other_type");
        make(remedy, c, 12);
        oe::RewriteSession rewrite = session(remedy, c);
        QVERIFY(rewrite.apply({}).ok);
        const QString field = remedy == Remedy::Extract ? QStringLiteral("body")
                              : remedy == Remedy::Keys  ? QStringLiteral("daily")
                                                        : QStringLiteral("attrs");
        QVERIFY(run(QStringLiteral(R"({"update": "%1", "updates": [)"
                                   R"({"q": {"_id": 3}, "u": {"$set": {"%2": {"x": 1}}}},)"
                                   R"({"q": {"_id": 4}, "u": {"$set": {"%2": 7}}},)"
                                   R"({"q": {"_id": 5}, "u": {"$set": {"%2": [1, {"n": 2}]}}}]})")
                        .arg(c, field)));
        const auto changed = read(c);
        const oe::RewriteStep back = rewrite.rollback({});
        QVERIFY2(back.ok, qPrintable(back.error.message));
        QCOMPARE(back.progress.changedSince, std::uint64_t(3));
        QCOMPARE(back.progress.rewritten, std::uint64_t(9));
        const auto after = read(c);
        for (int i : {3, 4, 5})
            QVERIFY(after.at(intId(i)) == changed.at(intId(i)));
    }

    // A double's zero changed to -0.0 and a decimal's 1.0 to 1.00 after an extraction: equal
    // values to $eq, other bytes: both kept by the rollback.
    void rollbackKeepsZeroSignAndDecimalDigits()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB stores no decimal128");
        const QString c = QStringLiteral("exact_numbers");
        make(Remedy::Extract, c, 0);
        QString error;
        QVERIFY2(run(QStringLiteral(R"({"insert": "%1", "documents": [)"
                                    R"({"_id": 1, "body": {"n": 0.0, "html": "%2"}},)"
                                    R"({"_id": 2, "body": {"n": {"$numberDecimal": "1.0"}, )"
                                    R"("html": "%2"}}]})")
                         .arg(c, QString(300, QLatin1Char('a'))),
                     &error),
                 qPrintable(error));
        oe::RewriteConfig config = configOf(Remedy::Extract, c);
        config.excerptKeys = {QStringLiteral("n")};
        oe::ConnectionSettings settings;
        settings.uri = m_uri;
        oe::RewriteSession rewrite(settings, kDb, config);
        QVERIFY(rewrite.apply({}).ok);
        QVERIFY(run(QStringLiteral(R"({"update": "%1", "updates": [{"q": {"_id": 1}, "u": )"
                                   R"({"$set": {"body.n": -0.0}}}, {"q": {"_id": 2}, "u": )"
                                   R"({"$set": {"body.n": {"$numberDecimal": "1.00"}}}}]})")
                        .arg(c)));
        const auto changed = read(c);
        const oe::RewriteStep back = rewrite.rollback({});
        QVERIFY2(back.ok, qPrintable(back.error.message));
        QCOMPARE(back.progress.changedSince, std::uint64_t(2));
        QCOMPARE(back.progress.rewritten, std::uint64_t(0));
        QVERIFY(read(c) == changed);
    }

    // An application thread changes types while the rewrite runs (paced, so that it runs a
    // while on any server) and again while it rolls back: whatever the timing, every document
    // it changed holds its long at the end, and every document is accounted for.
    void applicationThread_data() { addRemedies(); }
    void applicationThread()
    {
        if (!m_server.isMongod())
            QSKIP("FerretDB's updates are not atomic: the window is not closed there (said)");
        QFETCH(Remedy, remedy);
        const QString c = QStringLiteral("racing_thread");
        constexpr int kDocuments = 300;
        make(remedy, c, kDocuments);
        std::vector<TypeFlipper::Flip> flips;
        for (int i = 0; i < kDocuments; ++i)
            flips.push_back({intId(i), QString::number(i), flipStatements(remedy, i)});
        std::mt19937 random(53);
        std::shuffle(flips.begin(), flips.end(), random);
        const auto half = flips.begin() + kDocuments / 2;
        oe::RewriteSession rewrite = session(remedy, c);
        oe::RewriteOptions options;
        options.batch = 10;
        options.maxDocsPerSecond = 1000;

        TypeFlipper during(m_uri, kDb, c, {flips.begin(), half});
        during.start();
        const oe::RewriteStep applied = rewrite.apply(options);
        QVERIFY2(during.stop(), qPrintable(during.error()));
        QVERIFY2(applied.ok, qPrintable(applied.error.message));
        QCOMPARE(applied.progress.rewritten + applied.progress.changedSince,
                 std::uint64_t(kDocuments));
        auto now = read(c);
        for (const QByteArray &id : during.changed())
            QVERIFY2(holdsLong(now.at(id)), "an application's long was overwritten by the apply");

        TypeFlipper back(m_uri, kDb, c, {half, flips.end()});
        back.start();
        const oe::RewriteStep rolled = rewrite.rollback(options);
        QVERIFY2(back.stop(), qPrintable(back.error()));
        QVERIFY2(rolled.ok, qPrintable(rolled.error.message));
        now = read(c);
        for (const auto *changed : {&during.changed(), &back.changed()})
            for (const QByteArray &id : *changed)
                QVERIFY2(holdsLong(now.at(id)), "an application's long was overwritten");
        qInfo("type-only writes: %zu while applying, %zu while rolling back; the apply kept %llu "
              "as the application's, the rollback %llu",
              during.changed().size(), back.changed().size(),
              static_cast<unsigned long long>(applied.progress.changedSince),
              static_cast<unsigned long long>(rolled.progress.changedSince));
    }
};

QTEST_GUILESS_MAIN(TestRewriteRace)
#include "tst_rewriterace.moc"
