// The shareable report reads true and lays out cleanly: a document's row carries its outlier
// array (the longest arrays are listed as well as the largest documents); the chosen keep is
// named apart from the outlier threshold and matches the chart; in the PDF a chart's heading
// never ends a page and a long field name breaks only after '_' or '.'; the default file name
// is the collection's, made safe.
#include "BsonFixtures.h"
#include "explore/AnalysisSession.h"
#include "export/ReportCharts.h"
#include "export/ReportDocument.h"
#include "widgets/ReportExporter.h"

#include <QApplication>
#include <QLocale>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QtTest>

using namespace oe;

namespace {

const char kField[] = "customers_purchase_history_of_every_region";
constexpr int kLongest = 18658;
constexpr int kLongestId = 999;

// The cells of every row of the HTML tables with this class.
QList<QStringList> tableRows(const QString &html, const QString &cls)
{
    static const QRegularExpression rowRe(QStringLiteral("<tr>(.*?)</tr>"));
    static const QRegularExpression cellRe(QStringLiteral("<t[dh]>(.*?)</t[dh]>"));
    QList<QStringList> rows;
    const QString open = QStringLiteral("<table class=\"%1\"").arg(cls);
    for (qsizetype start = html.indexOf(open); start >= 0; start = html.indexOf(open, start + 1)) {
        const QString table =
            html.mid(start, html.indexOf(QStringLiteral("</table>"), start) - start);
        for (auto r = rowRe.globalMatch(table); r.hasNext();) {
            QStringList cells;
            const QString inner = r.next().captured(1);
            for (auto c = cellRe.globalMatch(inner); c.hasNext();)
                cells << QTextDocumentFragment::fromHtml(c.next().captured(1)).toPlainText();
            rows << cells;
        }
    }
    return rows;
}

// The PDF's text, page by page (pdftotext separates pages with a form feed).
QStringList pdfPages(const QString &path)
{
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {path, QStringLiteral("-")});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    QString text = QString::fromUtf8(p.readAllStandardOutput());
    text.remove(QChar(0x200B));
    return text.split(QLatin1Char('\f'));
}

} // namespace

class TestReportLayout : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    AnalysisResult m_result;

    ReportDocument report(const std::optional<SplitConfig> &layout) const
    {
        ReportOptions options;
        options.layout = layout;
        return ReportDocument(
            m_result,
            ReportCharts::render(m_result,
                                 layout ? std::optional<std::uint64_t>(layout->keep) : std::nullopt,
                                 layout ? layout->field : QString()),
            options);
    }

private slots:
    void initTestCase()
    {
        // 200 ordinary documents; 25 far larger ones (a big string, no array); and one whose
        // array is 18,658 elements long: a size outlier too, though smaller than those 25.
        QList<QByteArray> docs;
        for (int i = 0; i < 200; ++i)
            docs << fixtures::documentWithArray(i, 5 + i % 11, kField);
        for (int i = 0; i < 25; ++i)
            docs << fixtures::documentOfSize(500 + i, 400000 + i * 1000);
        docs << fixtures::documentWithArray(kLongestId, kLongest, kField);
        const QString dump = m_dir.filePath(QStringLiteral("shop.bson"));
        QVERIFY(fixtures::writeFile(dump, fixtures::concat(docs)));
        AnalysisRequest request;
        request.source.kind = SourceRef::Kind::Dump;
        request.source.dumpPath = dump;
        request.selection.mode = AnalysisOptions::Mode::Full;
        m_result = AnalysisSession::run(request);
        QCOMPARE(m_result.profile.status, CollectionProfile::Status::Complete);
        QVERIFY(m_result.recommendationFor(kField));
    }

    // The document with the longest array shows it in its row, whichever table lists it.
    void outlierRowsCarryTheirArray()
    {
        const QString html = report(std::nullopt).html();
        const QList<QStringList> rows = tableRows(html, QStringLiteral("outliers"));
        QVERIFY(!rows.isEmpty());
        const QStringList header = rows.first();
        int found = 0;
        for (const QStringList &row : rows)
            if (row.value(0) == QString::number(kLongestId)) {
                ++found;
                QCOMPARE(row.value(2), QString::fromLatin1(kField));
                QCOMPARE(row.value(3), QLocale().toString(kLongest));
            }
        QVERIFY2(found >= 1, qPrintable(header.join(QLatin1Char('|'))));
    }

    // "array threshold 50" (what is an outlier) is not the keep (what stays in the document):
    // each is named, and the chosen keep is the chart's.
    void chosenKeepIsTheChartsAndNamed()
    {
        SplitConfig layout;
        layout.collection = QStringLiteral("shop");
        layout.field = QString::fromLatin1(kField);
        layout.keep = 7;
        layout = layout.withDefaults();
        const QString html = report(layout).html();
        QVERIFY2(html.contains(QStringLiteral("keep 7 (chosen)")), "the chart's caption");
        bool rowFound = false;
        const QList<QStringList> rows = tableRows(html, QStringLiteral("recommendations"));
        QVERIFY(rows.size() >= 2);
        const qsizetype chosenColumn = rows.first().indexOf(QStringLiteral("chosen keep"));
        QVERIFY2(chosenColumn > 0, qPrintable(rows.first().join(QLatin1Char('|'))));
        for (const QStringList &row : rows.mid(1))
            if (row.value(0) == QString::fromLatin1(kField)) {
                rowFound = true;
                QCOMPARE(row.value(chosenColumn), QStringLiteral("7"));
            }
        QVERIFY(rowFound);
        QVERIFY(html.contains(
            QStringLiteral("keep 7 elements of %1").arg(QString::fromLatin1(kField))));
    }

    // However much the header takes (a longer source name wraps onto more lines), a chart's
    // heading shares its page with the chart's caption; a long field name is never cut
    // inside a word.
    void pdfKeepsHeadingsWithTheirCharts()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
        const QString heading = QStringLiteral("Document sizes");
        const QString caption = QStringLiteral("BSON size of every analysed document");
        for (int lines = 0; lines < 40; lines += 2) {
            AnalysisResult longer = m_result;
            longer.profile.source = QStringLiteral("source ").repeated(lines * 14);
            const ReportDocument document(longer, ReportCharts::render(longer, {}, {}), {});
            QString error;
            QVERIFY2(document.write(pdf, &error), qPrintable(error));
            const QStringList pages = pdfPages(pdf);
            QVERIFY2(pages.size() > 1, "pdftotext (poppler-utils) could not read the PDF");
            for (const QString &page : pages) {
                if (page.contains(heading + QLatin1Char('\n')))
                    QVERIFY2(
                        page.contains(caption),
                        qPrintable(
                            QStringLiteral("%1 header lines: the heading ends a page").arg(lines)));
                // Joined where a line ends after '_' (the one place a name may break), every
                // "customers_purchase" is the whole name.
                QString joined = page;
                joined.replace(QRegularExpression(QStringLiteral("_\\s*\\n\\s*")),
                               QStringLiteral("_"));
                for (qsizetype at = joined.indexOf(QStringLiteral("customers_purchase")); at >= 0;
                     at = joined.indexOf(QStringLiteral("customers_purchase"), at + 1))
                    QVERIFY2(joined.mid(at).startsWith(QString::fromLatin1(kField)),
                             qPrintable(joined.mid(at, 60)));
            }
        }
    }

    // Issue 54: a server-side measurement is a partial analysis, and the report says so in its
    // header, before any figure; a complete one says nothing of the kind.
    void partialAnalysisNamedInTheHeader()
    {
        const auto header = [](const AnalysisResult &result) {
            const QString html =
                ReportDocument(result, ReportCharts::render(result, {}, {}), {}).html();
            return html.left(html.indexOf(QLatin1String("<h2>")));
        };
        QVERIFY(!header(m_result).contains(QLatin1String("Partial analysis")));
        AnalysisResult partial = m_result;
        partial.profile.measuredOnServer = true;
        const QString named = header(partial);
        QVERIFY2(named.contains(QLatin1String("Partial analysis: the server measured document "
                                              "sizes and arrays only")),
                 qPrintable(named));
    }

    // Issue 35: the summary of a full scan listed ten empty rows that only describe a sample
    // (its confidence intervals and the sample sizes it suggests), in the HTML and the PDF.
    // Left out for a full scan; there, with their values, for a sample.
    void sampleOnlyRowsOnlyForASample()
    {
        const QStringList sampleOnly{QStringLiteral("confidence"),
                                     QStringLiteral("size_p99_ci_low"),
                                     QStringLiteral("sample_for_p99_target")};
        const auto summary = [](const AnalysisResult &result) {
            return tableRows(
                ReportDocument(result, ReportCharts::render(result, {}, {}), {}).html(),
                QStringLiteral("summary"));
        };
        const QList<QStringList> full = summary(m_result);
        QVERIFY(full.size() > 10);
        for (const QStringList &row : full)
            QVERIFY2(!sampleOnly.contains(row.value(0)), qPrintable(row.join(QLatin1Char('|'))));
        const QString pdf = m_dir.filePath(QStringLiteral("full.pdf"));
        QString error;
        QVERIFY2(
            ReportDocument(m_result, ReportCharts::render(m_result, {}, {}), {}).write(pdf, &error),
            qPrintable(error));
        const QString text = pdfPages(pdf).join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("size_p99")), "pdftotext could not read the PDF");
        for (const QString &metric : sampleOnly)
            QVERIFY2(!text.contains(metric), qPrintable(metric));

        AnalysisRequest request = m_result.request;
        request.selection.mode = AnalysisOptions::Mode::Sample;
        request.selection.count = 100;
        const AnalysisResult sampled = AnalysisSession::run(request);
        QCOMPARE(sampled.profile.status, CollectionProfile::Status::Complete);
        QStringList metrics;
        for (const QStringList &row : summary(sampled))
            if (sampleOnly.contains(row.value(0))) {
                metrics << row.value(0);
                QVERIFY2(!row.value(1).isEmpty(), qPrintable(row.join(QLatin1Char('|'))));
            }
        QCOMPARE(metrics, sampleOnly);
    }

    void defaultFileNameIsTheCollections()
    {
        AnalysisResult live = m_result;
        live.request.source = SourceRef();
        live.request.source.kind = SourceRef::Kind::Collection;
        live.request.source.database = QStringLiteral("shop");
        live.request.source.collection = QStringLiteral("books");
        live.profile.source = QStringLiteral("127.0.0.1:27017/shop.books");
        QCOMPARE(ReportExporter::suggestedName(live), QStringLiteral("books-outlier-report.html"));
        live.request.source.collection = QStringLiteral("../../etc/x:y\n");
        const QString hostile = ReportExporter::suggestedName(live);
        QVERIFY2(!hostile.contains(QLatin1Char('/')) && !hostile.startsWith(QLatin1Char('.')) &&
                     !hostile.contains(QLatin1Char('\n')),
                 qPrintable(hostile));
        QCOMPARE(ReportExporter::suggestedName(m_result),
                 QStringLiteral("shop-outlier-report.html")); // a dump: its base name
    }
};

QTEST_MAIN(TestReportLayout)
#include "tst_reportlayout.moc"
