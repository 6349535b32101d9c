// The analysis history: the forecast on a known growth (exact and through the CLI's
// `history --forecast`), source keys without credentials, `analyze` keeping each run (and not
// with --no-history, and going on with a note when the file cannot be written), the export;
// the schema outliers of shape kept run by run (a type mix drifting between two runs), a file
// an older build wrote (history format 1) migrated in place and still read, and a file a newer
// version wrote left alone.
#include "BsonFixtures.h"
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "VersionDocuments.h"
#include "demo/DemoDataGenerator.h"
#include "explore/AnalysisSession.h"
#include "history/GrowthForecast.h"
#include "history/HistoryStore.h"

#include <QCryptographicHash>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace oe;

namespace {

constexpr double MiB = 1024.0 * 1024.0;

QDateTime day(int n)
{
    return QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC).addDays(n);
}

// A document "grow" with `elements` comments of 100 bytes' text, and two small ones.
QByteArray growDocument(int elements)
{
    QStringList items;
    for (int i = 0; i < elements; ++i)
        items << QStringLiteral("{\"t\": \"%1\"}").arg(QString(100, QLatin1Char('x')));
    return fixtures::bson(qPrintable(QStringLiteral("{\"_id\": \"grow\", \"comments\": [%1]}")
                                         .arg(items.join(QLatin1Char(',')))));
}

} // namespace

class TestHistory : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    static QByteArray hashOf(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly)
                   ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256)
                   : QByteArray();
    }

private slots:
    void forecastOfAKnownGrowth()
    {
        // 1 MiB growing 0.5 MiB a day, a KiB of noise either way.
        std::vector<std::pair<QDateTime, double>> points;
        for (int i = 0; i < 5; ++i)
            points.emplace_back(day(i), MiB + 0.5 * MiB * i + (i % 2 ? 1024.0 : -1024.0));
        const GrowthForecast f = GrowthForecast::fit(points, 8 * MiB);
        QVERIFY(f.valid);
        QVERIFY(f.uncertaintyKnown);
        QVERIFY2(std::abs(f.perDay - 0.5 * MiB) < 0.01 * MiB, qPrintable(f.summary()));
        QVERIFY(f.perDayLow < f.perDay && f.perDay < f.perDayHigh);
        // From 3 MiB on day 4: 8 MiB ten days later, 16 MiB twenty-six days later.
        QVERIFY(f.threshold.expected && f.limit.expected);
        QCOMPARE(f.threshold.expected->date(), QDate(2026, 1, 15));
        QCOMPARE(f.limit.expected->date(), QDate(2026, 1, 31));
        QVERIFY(*f.threshold.earliest <= *f.threshold.expected &&
                *f.threshold.expected <= *f.threshold.latest);
        QVERIFY2(f.summary().contains(QStringLiteral("8.00 MiB about 2026-01-15")),
                 qPrintable(f.summary()));

        const GrowthForecast two = GrowthForecast::fit({{day(0), MiB}, {day(2), 2 * MiB}}, 8 * MiB);
        QVERIFY(two.valid && !two.uncertaintyKnown);
        QCOMPARE(two.threshold.expected->date(), QDate(2026, 1, 15)); // 6 MiB at 0.5 MiB/day
        QVERIFY2(two.summary().contains(QStringLiteral("no uncertainty stated")),
                 qPrintable(two.summary()));
        const GrowthForecast shrinking =
            GrowthForecast::fit({{day(0), 2 * MiB}, {day(1), MiB}, {day(2), 0.5 * MiB}}, 8 * MiB);
        QVERIFY(!shrinking.threshold.expected);
        QVERIFY(shrinking.summary().contains(QStringLiteral("not at this rate")));
        QVERIFY(!GrowthForecast::fit({{day(0), MiB}}, 8 * MiB).valid);
        QVERIFY(GrowthForecast::fit({{day(0), 9 * MiB}, {day(1), 10 * MiB}}, 8 * MiB)
                    .threshold.alreadyOver);
    }

    void sourceKeyHasNoCredentials()
    {
        SourceRef live;
        live.kind = SourceRef::Kind::Collection;
        live.settings.uri = QStringLiteral(
            "mongodb://alice:s3cr%40t@h1:27017,h2:27018/admin?replicaSet=rs0&authSource=admin");
        live.database = QStringLiteral("shop");
        live.collection = QStringLiteral("books");
        const QString key = HistoryStore::sourceKeyOf(live);
        QCOMPARE(key, QStringLiteral("mongodb://h1:27017,h2:27018/shop.books"));
        SourceRef dump;
        dump.kind = SourceRef::Kind::Dump;
        dump.dumpPath = QStringLiteral("relative/x.bson");
        QCOMPARE(HistoryStore::sourceKeyOf(dump),
                 QStringLiteral("dump:") +
                     QFileInfo(QStringLiteral("relative/x.bson")).absoluteFilePath());
    }

    // Three analyses a day apart of a dump where one document grows by 100 comments a day:
    // `history --forecast` dates the threshold where the exact growth puts it.
    void forecastThroughTheCli()
    {
        const QString history = m_dir.filePath(QStringLiteral("forecast.sqlite"));
        const QString dump = m_dir.filePath(QStringLiteral("feed.bson"));
        const QByteArray small = fixtures::bson("{\"_id\": \"a\", \"comments\": []}");
        std::vector<qint64> sizes;
        for (int d = 0; d < 3; ++d) {
            const QByteArray grow = growDocument(100 * (d + 1));
            sizes.push_back(grow.size());
            QVERIFY(fixtures::writeFile(dump, fixtures::concat({small, grow})));
            AnalysisRequest request;
            request.source.kind = SourceRef::Kind::Dump;
            request.source.dumpPath = dump;
            request.selection.mode = DocumentSelection::Mode::Full;
            const AnalysisResult result = AnalysisSession::run(request);
            HistoryStore store(history);
            QVERIFY2(store.record(request.source, result.profile, result.outliers, &result.shape,
                                  QStringLiteral("cli"), day(d)),
                     qPrintable(store.error()));
        }
        const qint64 perDay = sizes[1] - sizes[0];
        QCOMPARE(sizes[2] - sizes[1], perDay); // exactly linear
        const qint64 threshold = sizes[2] + 10 * perDay;
        qputenv("OE_HISTORY_DB", history.toUtf8());
        CliRun r = runCli({QStringLiteral("history"), QStringLiteral("--dump"), dump,
                           QStringLiteral("--forecast"), QStringLiteral("--threshold"),
                           QString::number(threshold)});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString expected =
            QStringLiteral("about %1").arg(day(12).date().toString(Qt::ISODate));
        QStringList lines = r.out.split(QLatin1Char('\n'));
        const auto grow = std::find_if(lines.begin(), lines.end(), [](const QString &l) {
            return l.startsWith(QStringLiteral("  _id \"grow\":"));
        });
        QVERIFY2(grow != lines.end(), qPrintable(r.out));
        QVERIFY2(grow->contains(expected) && grow->contains(QStringLiteral("(0.00 B")) == false,
                 qPrintable(*grow + QStringLiteral(" | wanted ") + expected));
        QVERIFY2(lines.first().contains(expected), qPrintable(lines.first())); // the largest

        // The report says it too (its own analysis of the dump joins the history first: the
        // document as it is now, day 2's size, today).
        const QString report = m_dir.filePath(QStringLiteral("feed.html"));
        r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), dump,
                    QStringLiteral("--out"), report, QStringLiteral("--quiet")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile html(report);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(html.readAll());
        QVERIFY2(text.contains(QStringLiteral("<h2>Growth forecast</h2>")) &&
                     text.contains(QStringLiteral("<li>_id &quot;grow&quot;: +")),
                 qPrintable(text.left(4000)));

        r = runCli({QStringLiteral("history"), QStringLiteral("--dump"), dump,
                    QStringLiteral("--out"), m_dir.filePath(QStringLiteral("export"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QList<QStringList> outliers =
            csvtest::readFile(m_dir.filePath(QStringLiteral("export/outliers.csv")));
        QVERIFY(!outliers.isEmpty());
        QCOMPARE(outliers.first(), QStringList({QStringLiteral("run_id"), QStringLiteral("kind"),
                                                QStringLiteral("rank"), QStringLiteral("_id"),
                                                QStringLiteral("bytes"), QStringLiteral("path"),
                                                QStringLiteral("length")}));
        QStringList grown;
        for (const QStringList &row : outliers.mid(1))
            if (row.value(3) == QLatin1String("\"grow\"") && row.value(1) == QLatin1String("size"))
                grown << row.value(4);
        QCOMPARE(grown, QStringList({QString::number(sizes[0]), QString::number(sizes[1]),
                                     QString::number(sizes[2]), QString::number(sizes[2])}));
        qunsetenv("OE_HISTORY_DB");
    }

    // `analyze` keeps each run (the CLI's), not with --no-history; a history it cannot write is
    // a note, and the analysis still succeeds.
    void analyzeKeepsItsRuns()
    {
        const QString history = m_dir.filePath(QStringLiteral("analyze.sqlite"));
        const QString dump = m_dir.filePath(QStringLiteral("two.bson"));
        QVERIFY(fixtures::writeFile(
            dump, fixtures::concat({growDocument(3), fixtures::bson("{\"_id\": 1}")})));
        qputenv("OE_HISTORY_DB", history.toUtf8());
        const QStringList analyze = {QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                                     QStringLiteral("--out"), m_dir.filePath(QStringLiteral("r"))};
        QCOMPARE(runCli(analyze).exitCode, 0);
        QCOMPARE(runCli(analyze + QStringList{QStringLiteral("--no-history")}).exitCode, 0);
        const std::vector<HistoryRun> runs = HistoryStore(history).runs();
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].origin, QStringLiteral("cli"));
        QCOMPARE(runs[0].documents, std::uint64_t(2));
        QCOMPARE(runs[0].sizeMax, std::uint64_t(growDocument(3).size()));

        qputenv("OE_HISTORY_DB", "/proc/no-such-place/history.sqlite");
        const CliRun r = runCli(analyze);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains(QStringLiteral("not kept in the analysis history")) ||
                     r.err.contains(QStringLiteral("cannot create its folder")),
                 qPrintable(r.err));
        qunsetenv("OE_HISTORY_DB");
    }

    // Two analyses of device readings, the second on twice the devices: each run keeps its
    // flags, and the mixed firmware's count is seen growing (6 of 1,500, then 12 of 3,000);
    // `history --out` exports them (shape_flags.csv) and counts them in runs.csv.
    void theShapeIsKeptRunByRun()
    {
        const QString history = m_dir.filePath(QStringLiteral("shape.sqlite"));
        const QString dump = m_dir.filePath(QStringLiteral("devices.bson"));
        qputenv("OE_HISTORY_DB", history.toUtf8());
        for (const std::uint64_t documents : {1500u, 3000u}) {
            QString error;
            QVERIFY2(DemoDataGenerator::write(QStringLiteral("device_readings"), dump, documents,
                                              DemoDataGenerator::kDemoSeed, &error),
                     qPrintable(error));
            const CliRun r = runCli(
                {QStringLiteral("analyze"), QStringLiteral("--dump"), dump, QStringLiteral("--out"),
                 m_dir.filePath(QStringLiteral("shape-r")), QStringLiteral("--quiet")});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        }
        const HistoryStore store(history);
        QCOMPARE(store.format(), HistoryStore::kFormat);
        const std::vector<HistoryRun> runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(runs[0].shapeFlags, std::optional<std::uint64_t>(10));
        const auto firmware = [&](qint64 run) {
            for (const HistoryShapeFlag &f : store.shapeFlags(run))
                if (f.kind == QLatin1String("mixed_types") && f.path == QLatin1String("firmware"))
                    return QStringLiteral("%1 %2 of %3").arg(f.type).arg(f.count).arg(f.total);
            return QString();
        };
        QCOMPARE(firmware(runs[0].id), QStringLiteral("string 6 of 1500"));
        QCOMPARE(firmware(runs[1].id), QStringLiteral("string 12 of 3000"));
        QCOMPARE(store.shapeFlags(runs[0].id).size(), std::size_t(10));

        const QString out = m_dir.filePath(QStringLiteral("shape-export"));
        const CliRun r = runCli({QStringLiteral("history"), QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QList<QStringList> flags =
            csvtest::readFile(out + QStringLiteral("/shape_flags.csv"));
        QCOMPARE(flags.value(0),
                 QStringLiteral("run_id,kind,path,type,count,total").split(QLatin1Char(',')));
        QCOMPARE(flags.size(), 1 + qsizetype(store.shapeFlags(runs[0].id).size() +
                                             store.shapeFlags(runs[1].id).size()));
        const QList<QStringList> runRows = csvtest::readFile(out + QStringLiteral("/runs.csv"));
        QCOMPARE(runRows.value(0).last(), QStringLiteral("shape_flags"));
        QCOMPARE(runRows.value(1).last(), QStringLiteral("10"));
        qunsetenv("OE_HISTORY_DB");
    }

    // tests/data/history-format1.sqlite was written by the build at 20eff1b (history format 1,
    // no user_version): opened now, it is migrated in place, its runs, paths and outliers read
    // as before (without a shape), and a new run keeps its flags beside them.
    void aFileAnOlderBuildWroteIsMigrated()
    {
        const QString history = m_dir.filePath(QStringLiteral("older.sqlite"));
        QVERIFY(QFile::copy(QFINDTESTDATA("data/history-format1.sqlite"), history));
        QFile::setPermissions(history, QFile::ReadOwner | QFile::WriteOwner);
        HistoryStore store(history);
        QVERIFY2(store.isOpen(), qPrintable(store.error()));
        QCOMPARE(store.format(), HistoryStore::kFormat);
        std::vector<HistoryRun> runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        for (const HistoryRun &r : runs) {
            QCOMPARE(r.origin, QStringLiteral("cli"));
            QCOMPARE(r.collection, QStringLiteral("book_sales"));
            QCOMPARE(r.documents, std::uint64_t(2000));
            QVERIFY(!r.shapeFlags);
            QVERIFY(!store.paths(r.id).empty());
            QVERIFY(!store.outliers(r.id).empty());
            QVERIFY(store.shapeFlags(r.id).empty());
        }
        const QString dump = m_dir.filePath(QStringLiteral("older-devices.bson"));
        QString error;
        QVERIFY2(DemoDataGenerator::write(QStringLiteral("device_readings"), dump, 0,
                                          DemoDataGenerator::kDemoSeed, &error),
                 qPrintable(error));
        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Dump;
        request.source.dumpPath = dump;
        request.selection.mode = DocumentSelection::Mode::Full;
        const AnalysisResult result = AnalysisSession::run(request);
        QVERIFY2(store.record(request.source, result.profile, result.outliers, &result.shape,
                              QStringLiteral("cli")),
                 qPrintable(store.error()));
        runs = store.runs();
        QCOMPARE(runs.size(), std::size_t(3));
        QCOMPARE(runs.back().shapeFlags, std::optional<std::uint64_t>(10));
        QCOMPARE(store.shapeFlags(runs.back().id).size(), std::size_t(10));
        // Opened again: already in the current format, nothing to do.
        const QByteArray before = hashOf(history);
        QCOMPARE(HistoryStore(history).format(), HistoryStore::kFormat);
        QCOMPARE(hashOf(history), before);
    }

    // tests/data/history-format2.sqlite was written by the build at a9f1518 (history format 2:
    // shape flags, no version shares), two analyses of a dump whose documents carry a
    // schema_version. Opened now it gains version_shares; its runs read as before, without
    // shares; the analyses after it keep theirs, and each one reads the shares' movement.
    void aFormatTwoFileKeepsVersionSharesFromNowOn()
    {
        const QString history = m_dir.filePath(QStringLiteral("format2.sqlite"));
        QVERIFY(QFile::copy(QFINDTESTDATA("data/history-format2.sqlite"), history));
        QFile::setPermissions(history, QFile::ReadOwner | QFile::WriteOwner);
        {
            HistoryStore store(history);
            QVERIFY2(store.isOpen(), qPrintable(store.error()));
            QCOMPARE(store.format(), 3);
            const std::vector<HistoryRun> runs = store.runs();
            QCOMPARE(runs.size(), std::size_t(2));
            QCOMPARE(runs.front().documents, std::uint64_t(200));
            QVERIFY(store.versionHistory(runs.front().sourceKey, "schema_version").empty());
        }
        const QString dump = m_dir.filePath(QStringLiteral("lazy.bson"));
        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Dump;
        request.source.dumpPath = dump;
        request.selection.mode = DocumentSelection::Mode::Full;
        request.historyPath = history;
        std::vector<SchemaVersions::Point> moved;
        for (int unversioned : {400, 100}) {
            QVERIFY(fixtures::writeFile(
                dump, fixtures::concat(fixtures::versionedDocuments(unversioned))));
            const AnalysisResult result = AnalysisSession::run(request);
            QCOMPARE(result.shape.versions.field, std::string("schema_version"));
            moved = result.shape.versions.history;
        }
        QCOMPARE(moved.size(), std::size_t(2));
        QStringList shares;
        for (const SchemaVersions::Point &p : moved) {
            QCOMPARE(p.documents, std::uint64_t(1000));
            for (const SchemaVersions::Share &s : p.shares)
                shares << QStringLiteral("%1=%2").arg(s.value).arg(s.documents);
        }
        shares.sort();
        QCOMPARE(shares.join(QLatin1Char(' ')),
                 QStringLiteral("(none)=100 (none)=400 1=500 1=800 2=92 2=92 3=8 3=8"));
        QVERIFY(moved.front().at <= moved.back().at);
    }

    // A file a newer version wrote (format 4): the history is off for this run, with the
    // reason, and the file is not touched.
    void aFileANewerVersionWroteIsLeftAlone()
    {
        const QString history = m_dir.filePath(QStringLiteral("newer.sqlite"));
        {
            QSqlDatabase db =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("newer"));
            db.setDatabaseName(history);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(QStringLiteral("CREATE TABLE future (x INTEGER)")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 4")));
            db.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("newer"));
        const QByteArray before = hashOf(history);
        const HistoryStore store(history);
        QVERIFY(!store.isOpen());
        QCOMPARE(store.error(),
                 history + QStringLiteral(": written by a newer Outlier Explorer (history format "
                                          "4; this version reads up to 3)"));
        QVERIFY(store.runs().empty());
        QCOMPARE(hashOf(history), before);
    }
};

QTEST_GUILESS_MAIN(TestHistory)
#include "tst_history.moc"
