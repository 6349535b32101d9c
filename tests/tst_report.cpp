// `outlier-explorer-cli report`: one self-contained HTML file (charts inline as SVG, nothing
// fetched) and a PDF (A4 or Letter, charts as vector drawing), whose summary figures are
// summary.csv's, text for text; bad output paths refused in one line; and, against the
// server with authentication (mongod), a report that never shows the password.
#include "CliRunner.h"
#include "CsvTestReader.h"
#include "LiveDocuments.h"
#include "LiveServer.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QtTest>

#include <algorithm>
#include <map>
#include <vector>

namespace {

QByteArray bytesOf(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The rows of the HTML table with this class, as plain text cells.
QList<QStringList> tableRows(const QString &html, const QString &cls)
{
    const qsizetype start = html.indexOf(QStringLiteral("<table class=\"%1\"").arg(cls));
    const qsizetype end = html.indexOf(QStringLiteral("</table>"), start);
    if (start < 0 || end < 0)
        return {};
    static const QRegularExpression rowRe(QStringLiteral("<tr>(.*?)</tr>"));
    static const QRegularExpression cellRe(QStringLiteral("<t[dh]>(.*?)</t[dh]>"));
    QList<QStringList> rows;
    const QString table = html.mid(start, end - start);
    for (auto r = rowRe.globalMatch(table); r.hasNext();) {
        QStringList cells;
        const QString inner = r.next().captured(1);
        for (auto c = cellRe.globalMatch(inner); c.hasNext();)
            cells << QTextDocumentFragment::fromHtml(c.next().captured(1)).toPlainText();
        rows << cells;
    }
    return rows;
}

// A PDF's text as a reader sees it (poppler's pdftotext): its content streams are compressed,
// so a search of the file's bytes would find nothing whatever the pages say. Empty, with the
// test failed by the caller, when pdftotext cannot be run.
QString pdfText(const QString &path)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), path, QStringLiteral("-")});
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

int mediaBoxWidth(const QByteArray &pdf)
{
    static const QRegularExpression box(QStringLiteral("/MediaBox \\[0 0 (\\d+)"));
    return box.match(QString::fromLatin1(pdf)).captured(1).toInt();
}

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_feeds;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const CliRun r = runCli({QStringLiteral("demo-data"), QStringLiteral("--out"),
                                 m_dir.filePath(QStringLiteral("demo"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        m_feeds = m_dir.filePath(QStringLiteral("demo/activity_feeds.bson"));
    }

    void htmlSummaryIsSummaryCsv()
    {
        const QString html = m_dir.filePath(QStringLiteral("report.html"));
        const QString csvDir = m_dir.filePath(QStringLiteral("csv"));
        const QStringList options{QStringLiteral("--dump"),       m_feeds,
                                  QStringLiteral("--method"),     QStringLiteral("percentile"),
                                  QStringLiteral("--percentile"), QStringLiteral("95")};
        CliRun r = runCli(QStringList{QStringLiteral("report")} + options +
                          QStringList{QStringLiteral("--out"), html});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli(QStringList{QStringLiteral("analyze")} + options +
                   QStringList{QStringLiteral("--out"), csvDir, QStringLiteral("--quiet")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));

        const QString text = QString::fromUtf8(bytesOf(html));
        QList<QStringList> shown = tableRows(text, QStringLiteral("summary"));
        const QList<QStringList> allRows =
            csvtest::readFile(csvDir + QStringLiteral("/summary.csv"));
        QVERIFY(allRows.size() > 20);
        // A full scan: the rows that only describe a sample (empty in summary.csv, which keeps
        // its columns) are left out of the HTML; every other row is there, in the same order.
        static const QStringList sampleOnly = {QStringLiteral("confidence"),
                                               QStringLiteral("size_p50_ci_low"),
                                               QStringLiteral("size_p50_ci_high"),
                                               QStringLiteral("size_p99_ci_low"),
                                               QStringLiteral("size_p99_ci_high"),
                                               QStringLiteral("share_above_sample_max"),
                                               QStringLiteral("documents_above_sample_max"),
                                               QStringLiteral("sample_for_p99_within_0_1"),
                                               QStringLiteral("p99_precision_target"),
                                               QStringLiteral("sample_for_p99_target")};
        QList<QStringList> csv;
        for (const QStringList &row : allRows) {
            if (sampleOnly.contains(row.value(0)))
                QVERIFY2(row.value(1).isEmpty(), qPrintable(row.join(QLatin1Char(','))));
            else
                csv << row;
        }
        QCOMPARE(allRows.size() - csv.size(), qsizetype(10));
        QCOMPARE(shown.size(), csv.size());
        for (qsizetype i = 0; i < csv.size(); ++i) {
            if (csv[i].value(0) == QLatin1String("seconds"))
                continue; // the time each run took
            QCOMPARE(shown[i], csv[i]);
        }
        // Self-contained: charts inline (sizes + the one splittable array), nothing fetched.
        QCOMPARE(text.count(QStringLiteral("<svg")), 2);
        static const QRegularExpression external(
            QStringLiteral("(src|href)\\s*=|@import|url\\(|<link|<script"));
        QVERIFY2(!text.contains(external), qPrintable(external.match(text).captured(0)));
        QVERIFY(text.contains(QStringLiteral("Array lengths: activities")));
        // The first outlier table: outliers.csv's documents (a row per document, not per
        // reason), the 20 largest (the default top K), largest first.
        QList<QStringList> outliers = csvtest::readFile(csvDir + QStringLiteral("/outliers.csv"));
        outliers.removeFirst();
        std::map<QString, qulonglong> sizeOf;
        for (const QStringList &row : outliers)
            sizeOf[row.value(0)] = row.value(1).toULongLong();
        std::vector<std::pair<qulonglong, QString>> bySize;
        for (const auto &[id, size] : sizeOf)
            bySize.emplace_back(size, id);
        std::sort(bySize.rbegin(), bySize.rend());
        const QList<QStringList> listed = tableRows(text, QStringLiteral("outliers"));
        QCOMPARE(listed.size(), 1 + std::min<qsizetype>(20, qsizetype(bySize.size())));
        for (qsizetype i = 1; i < listed.size(); ++i) // the same sizes, in order
            QCOMPARE(sizeOf[listed[i].value(0)], bySize[std::size_t(i - 1)].first);
    }

    // The Shape section is shape_outliers.csv, row for row and text for text (the window's
    // Shape tab is too: tst_guishape), on the demo's device readings, which have every kind;
    // with --anatomy, the size anatomy of the largest outliers is anatomy.csv's.
    void shapeSectionIsShapeCsv()
    {
        const QString dump = m_dir.filePath(QStringLiteral("demo/device_readings.bson"));
        const QString html = m_dir.filePath(QStringLiteral("shape.html"));
        const QString csvDir = m_dir.filePath(QStringLiteral("shape-csv"));
        CliRun r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), dump,
                           QStringLiteral("--out"), html, QStringLiteral("--anatomy"),
                           QStringLiteral("3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                    QStringLiteral("--out"), csvDir, QStringLiteral("--quiet"),
                    QStringLiteral("--anatomy"), QStringLiteral("3")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QList<QStringList> csv =
            csvtest::readFile(csvDir + QStringLiteral("/shape_outliers.csv"));
        QCOMPARE(csv.size(), 11);
        const QString text = QString::fromUtf8(bytesOf(html));
        QCOMPARE(tableRows(text, QStringLiteral("shape")), csv);
        QVERIFY(text.contains(QStringLiteral("<h2>Shape</h2><p>10 schema outliers of shape.")));

        // The size anatomy of the three outlier documents, largest first: the two with a
        // binary hold their weight in it; the fields add up to the document; the report's
        // table says the same.
        QList<QStringList> anatomy = csvtest::readFile(csvDir + QStringLiteral("/anatomy.csv"));
        QCOMPARE(anatomy.size(), 4);
        QCOMPARE(anatomy.takeFirst(),
                 QStringLiteral("_id,doc_index,bson_size,heaviest_path,heaviest_type,"
                                "heaviest_bytes,heaviest_share,top_fields,error")
                     .split(QLatin1Char(',')));
        const QList<QStringList> shown = tableRows(text, QStringLiteral("anatomy"));
        QCOMPARE(shown.size(), 4);
        for (qsizetype i = 0; i < anatomy.size(); ++i) {
            const QStringList &row = anatomy[i];
            QVERIFY2(row.value(8).isEmpty(), qPrintable(row.join(QLatin1Char(','))));
            qulonglong sum = 5;
            for (const QString &part : row.value(7).split(QLatin1Char('|')))
                sum += part.section(QLatin1Char(':'), -1).toULongLong();
            QCOMPARE(sum, row.value(2).toULongLong());
            QCOMPARE(shown[i + 1].value(0), row.value(0));
            QCOMPARE(shown[i + 1].value(2), row.value(3));
        }
        QVERIFY(anatomy[0].value(2).toULongLong() >= anatomy[1].value(2).toULongLong());
        for (int i : {0, 1}) {
            QCOMPARE(anatomy[i].value(3), QStringLiteral("diagnostics"));
            QCOMPARE(anatomy[i].value(4), QStringLiteral("binData"));
            QVERIFY(anatomy[i].value(6).toDouble() > 0.99);
        }
        QCOMPARE(anatomy[2].value(3), QStringLiteral("channels"));
        // A count of none is refused before anything is read.
        r = runCli({QStringLiteral("analyze"), QStringLiteral("--dump"), dump,
                    QStringLiteral("--out"), m_dir.filePath(QStringLiteral("none")),
                    QStringLiteral("--anatomy"), QStringLiteral("0")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("none/summary.csv"))));
    }

    void pdfOnA4AndLetter()
    {
        const QString a4 = m_dir.filePath(QStringLiteral("report.pdf"));
        const QString letter = m_dir.filePath(QStringLiteral("letter.pdf"));
        CliRun r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), m_feeds,
                           QStringLiteral("--out"), a4});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), m_feeds,
                    QStringLiteral("--out"), letter, QStringLiteral("--page-size"),
                    QStringLiteral("letter")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QByteArray pdf = bytesOf(a4);
        QVERIFY(pdf.startsWith("%PDF-"));
        QCOMPARE(mediaBoxWidth(pdf), 595);
        QCOMPARE(mediaBoxWidth(bytesOf(letter)), 612);
        QVERIFY(pdf.count("/Type /Page\n") + pdf.count("/Type /Page ") +
                    pdf.count("/Type /Page>") >=
                2);
    }

    void badOutputIsRefusedInOneLine()
    {
        CliRun r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), m_feeds,
                           QStringLiteral("--out"), m_dir.filePath(QStringLiteral("r.docx"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral(".html or .pdf")), qPrintable(r.err));
        r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), m_feeds,
                    QStringLiteral("--out"), QStringLiteral("/nonexistent/dir/r.html")});
        QCOMPARE(r.exitCode, 3);
        QVERIFY2(r.err.contains(QStringLiteral("could not write /nonexistent/dir/r.html")),
                 qPrintable(r.err));
    }

    // A report of a collection on the server with authentication: the URI redacted, the
    // password nowhere in either file.
    void credentialsNeverAppear()
    {
        const QString uri = fixtures::liveUri(QStringLiteral("auth"));
        QVERIFY2(!uri.isEmpty(), "no live server auth fixture (OE_LIVE_DIR/auth/env)");
        const QByteArray password("oe-test-password");
        QVERIFY(uri.toUtf8().contains(password));
        CliRun r = runCli({QStringLiteral("import"), QStringLiteral("--uri"), uri,
                           QStringLiteral("--db"), QStringLiteral("oe_report"),
                           QStringLiteral("--collection"), QStringLiteral("feeds"),
                           QStringLiteral("--dump"), m_feeds, QStringLiteral("--drop")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        for (const char *name : {"live.html", "live.pdf"}) {
            const QString out = m_dir.filePath(QString::fromLatin1(name));
            r = runCli({QStringLiteral("report"), QStringLiteral("--uri"), uri,
                        QStringLiteral("--db"), QStringLiteral("oe_report"),
                        QStringLiteral("--collection"), QStringLiteral("feeds"),
                        QStringLiteral("--out"), out});
            QVERIFY2(r.exitCode == 0, qPrintable(r.err));
            const QByteArray bytes = bytesOf(out);
            QVERIFY(bytes.size() > 1000);
            QVERIFY2(!bytes.contains(password), name);
            // What a reader of the file sees: the connection named (user and host, so the
            // check reads the text the URI is in), never its password.
            const QString text =
                out.endsWith(QLatin1String(".pdf"))
                    ? pdfText(out)
                    : QTextDocumentFragment::fromHtml(QString::fromUtf8(bytes)).toPlainText();
            QVERIFY2(!text.isEmpty(), "pdftotext (poppler-utils) could not read the PDF");
            const QString hostPort = fixtures::LiveServer::open(QStringLiteral("auth"))
                                         .value(QStringLiteral("OE_TEST_HOSTPORT"));
            QVERIFY2(text.contains(hostPort), qPrintable(text.left(2000)));
            QVERIFY2(!text.contains(QString::fromUtf8(password)), name);
            QVERIFY(!r.out.toUtf8().contains(password) && !r.err.toUtf8().contains(password));
        }
        QVERIFY(bytesOf(m_dir.filePath(QStringLiteral("live.html"))).contains("feeds"));
    }

    // --migration FIELD: the journal's run for the field, its layout and a fresh verification.
    void migrationFromTheJournal()
    {
        const QString uri = fixtures::liveUri(QStringLiteral("auth"));
        const QStringList target{QStringLiteral("--uri"),        uri,
                                 QStringLiteral("--db"),         QStringLiteral("oe_report"),
                                 QStringLiteral("--collection"), QStringLiteral("feeds")};
        CliRun r = runCli(QStringList{QStringLiteral("split")} + target +
                          QStringList{QStringLiteral("--field"), QStringLiteral("activities"),
                                      QStringLiteral("--keep"), QStringLiteral("500"),
                                      QStringLiteral("--overflow-collection"),
                                      QStringLiteral("feed_pages"), QStringLiteral("--yes")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString out = m_dir.filePath(QStringLiteral("migration.html"));
        r = runCli(QStringList{QStringLiteral("report")} + target +
                   QStringList{QStringLiteral("--migration"), QStringLiteral("activities"),
                               QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString html = QString::fromUtf8(bytesOf(out));
        static const QRegularExpression verdict(
            QStringLiteral("Verified: (\\d+) documents checked, \\1 matching, 0 mismatches"));
        const auto m = verdict.match(html);
        QVERIFY2(m.hasMatch() && m.captured(1).toInt() > 0, qPrintable(html.right(2000)));
        QVERIFY(html.contains(QStringLiteral("state applied")));
        const QList<QStringList> layout = tableRows(html, QStringLiteral("layout"));
        QVERIFY(layout.contains(
            QStringList({QStringLiteral("overflow collection"), QStringLiteral("feed_pages")})));
        QVERIFY(layout.contains(QStringList({QStringLiteral("keep"), QStringLiteral("500")})));
        // A dump has no journal: refused in one line.
        r = runCli({QStringLiteral("report"), QStringLiteral("--dump"), m_feeds,
                    QStringLiteral("--migration"), QStringLiteral("activities"),
                    QStringLiteral("--out"), m_dir.filePath(QStringLiteral("x.html"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--migration goes with --uri")), qPrintable(r.err));
    }
};

QTEST_MAIN(TestReport)
#include "tst_report.moc"
